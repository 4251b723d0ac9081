"""Choosing one op's loop sharding from the annotations around it.

An op sees at most one annotation per operand (the `mesh.shard` its operand
comes from) and any number per result (the `mesh.shard` ops using the
result).  Some target the op itself: an operand annotated for its users, a
result annotated as produced.  The others describe the value for someone
else: an operand's producer annotation, a result's annotations for its
users.  `choose` picks the loop sharding (the option) the op runs with.

The search is upstream MLIR's, so both passes agree on their common input:
every combination that keeps all op-targeting annotations and keeps or drops
each of the others is tried (results' choices outermost, keeping before
dropping), and the first option that needs no resharding wins; otherwise the
first that reshards only annotations not targeting the op; otherwise the
first at all.  Where upstream gives up (every combination conflicts) we do
not: the annotations are ranked (explicit before inferred, op-targeting
before not, results before operands) and the option keeps the earliest that
agree, so the others are resharded and `Choice.conflict` says which lost.

Layouts are compared on split and partial axes only: a halo or uneven split
on an annotation is a property of that value that an op's loop sharding
neither asks for nor removes.  The halos an op does need (a window read
across pieces) follow from the option it runs with and the mesh's shape:
given `mesh_shapes`, the chosen layouts carry them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from ..sharding.spec import Sharding
from .rules import Conflict, ShardingOption, ShardingRule, option_from_requests, shardings_from_option

MAX_SEARCH_BITS = 10
"""Beyond this many optional annotations on one op, skip the exhaustive
search (2**n combinations) and rank the annotations instead."""


@dataclass(frozen=True)
class Request:
    """An annotation an op sees.

    `targets_op`: an operand's annotation for its users, or a result's own
    annotation (upstream's "must" shardings).  `explicit`: written by the
    user rather than inferred.  `origin` is opaque to this module (the pass
    keeps the locations of the annotations behind an inferred one)."""

    mesh: str
    sharding: Sharding
    targets_op: bool
    explicit: bool = True
    origin: tuple = ()


@dataclass(frozen=True)
class Choice:
    """The option an op runs with and the layouts it implies (None for values
    that are not tensors).  `followed` lists the requests the option was
    built from; `conflict` is set when the annotations could not all be
    honoured together and ranking decided."""

    mesh: str
    option: ShardingOption
    operands: tuple[Sharding | None, ...]
    results: tuple[Sharding | None, ...]
    followed: tuple[Request, ...] = ()
    conflict: Conflict | None = None


MeshShapes = Mapping[str, Sequence[int]]
"""Mesh shapes by mesh name: what halo sizes are computed from."""


def same_layout(a: Sharding, b: Sharding) -> bool:
    """Equal split and partial axes (halos and offsets aside)."""
    return a.split_axes == b.split_axes and a.partial_axes == b.partial_axes and a.partial_type == b.partial_type


def same_placement(a: Sharding, b: Sharding) -> bool:
    """`same_layout` with equal halos too: what a device's local array holds
    (an op reading a window needs its halos; one that does not, none)."""
    return same_layout(a, b) and a.halo_sizes == b.halo_sizes


def _shardings(rule: ShardingRule, mesh: str, option: ShardingOption, mesh_shapes: MeshShapes | None):
    return shardings_from_option(rule, option, None if mesh_shapes is None else mesh_shapes.get(mesh))


def choice_from_option(
    rule: ShardingRule, mesh: str, option: ShardingOption, followed=(), mesh_shapes: MeshShapes | None = None
) -> Choice:
    """The layouts of a given option (an explicit `mesh.sharding_option`)."""
    operands, results = _shardings(rule, mesh, option, mesh_shapes)
    return Choice(mesh, option, operands, results, tuple(followed))


def _cost(choice: Choice, operands: Sequence[Request | None], results: Sequence[Sequence[Request]]) -> int:
    """0: no annotation needs resharding; 1: only annotations that do not
    target the op do; 2: an op-targeting annotation does."""
    worst = 0
    for req, need in zip(operands, choice.operands):
        if req is not None and need is not None and not (req.mesh == choice.mesh and same_layout(req.sharding, need)):
            if req.targets_op:
                return 2
            worst = 1
    for reqs, need in zip(results, choice.results):
        for req in reqs:
            if need is not None and not (req.mesh == choice.mesh and same_layout(req.sharding, need)):
                if req.targets_op:
                    return 2
                worst = 1
    return worst


def _slots(requests: Sequence[Request | None]) -> list[list[Request | None]]:
    """Per slot, the alternatives upstream tries: an op-targeting request
    alone, an other request then nothing, or nothing."""
    out: list[list[Request | None]] = []
    for r in requests:
        if r is None:
            out.append([None])
        elif r.targets_op:
            out.append([r])
        else:
            out.append([r, None])
    return out


def _combinations(requests: Sequence[Request | None]) -> Iterator[tuple[Request | None, ...]]:
    return product(*_slots(requests))


def _primary(reqs: Sequence[Request]) -> Request | None:
    """The request that speaks for a result: its own annotation, else the
    first annotation for its users."""
    for r in reqs:
        if r.targets_op:
            return r
    return reqs[0] if reqs else None


def choose(
    rule: ShardingRule,
    operands: Sequence[Request | None],
    results: Sequence[Sequence[Request]],
    mesh_shapes: MeshShapes | None = None,
) -> Choice | None:
    """The op's option, or None when no annotation says anything about it.
    With `mesh_shapes`, the layouts of operands read through a window carry
    their halos."""
    if len(operands) != len(rule.operand_maps) or len(results) != len(rule.result_maps):
        raise ValueError("one request slot per operand and per result is needed")
    # Requests on values the rule does not see as tensors say nothing.
    operands = [r if m is not None else None for r, m in zip(operands, rule.operand_maps)]
    results = [list(rs) if m is not None else [] for rs, m in zip(results, rule.result_maps)]
    primaries = [_primary(rs) for rs in results]
    optional = sum(1 for r in (*operands, *primaries) if r is not None and not r.targets_op)
    if optional <= MAX_SEARCH_BITS:
        best: tuple[int, Choice] | None = None
        for res in _combinations(primaries):
            for ops in _combinations(operands):
                choice = _try(rule, ops, res, mesh_shapes)
                if choice is None:
                    continue
                cost = _cost(choice, operands, results)
                if cost == 0:
                    return choice
                if best is None or cost < best[0]:
                    best = (cost, choice)
        if best is not None:
            return best[1]
    return _ranked(rule, operands, primaries, mesh_shapes)


def _try(
    rule: ShardingRule, ops: Sequence[Request | None], res: Sequence[Request | None], mesh_shapes: MeshShapes | None
) -> Choice | None:
    """The option of one combination, or None when it is empty or conflicts."""
    used = [("result", i, r) for i, r in enumerate(res) if r is not None]
    used += [("operand", i, r) for i, r in enumerate(ops) if r is not None]
    if not used:
        return None
    mesh = used[0][2].mesh
    if any(r.mesh != mesh for _, _, r in used):
        return None
    option = option_from_requests(rule, [(side, i, r.sharding) for side, i, r in used])
    if isinstance(option, Conflict):
        return None
    return _with_followed(rule, mesh, option, used, None, mesh_shapes)


def _with_followed(
    rule: ShardingRule, mesh: str, option: ShardingOption, used, conflict: Conflict | None, mesh_shapes=None
) -> Choice:
    """The choice, following the used requests its layouts agree with (a
    request that constrained nothing but still needs resharding is not
    followed)."""
    operand_layouts, result_layouts = _shardings(rule, mesh, option, mesh_shapes)

    def agrees(side: str, i: int, r: Request) -> bool:
        need = (result_layouts if side == "result" else operand_layouts)[i]
        return need is not None and same_layout(need, r.sharding)

    followed = tuple(r for side, i, r in used if agrees(side, i, r))
    return Choice(mesh, option, operand_layouts, result_layouts, followed, conflict)


def _ranked(
    rule: ShardingRule,
    operands: Sequence[Request | None],
    primaries: Sequence[Request | None],
    mesh_shapes: MeshShapes | None = None,
) -> Choice | None:
    """Every request at once, earlier ranks winning (see the module doc)."""
    ranked = [("result", i, r) for i, r in enumerate(primaries) if r is not None]
    ranked += [("operand", i, r) for i, r in enumerate(operands) if r is not None]
    if not ranked:
        return None
    ranked.sort(key=lambda t: (not t[2].explicit, not t[2].targets_op))  # stable: results before operands
    mesh = ranked[0][2].mesh
    same_mesh = [t for t in ranked if t[2].mesh == mesh]
    option = option_from_requests(rule, [(side, i, r.sharding) for side, i, r in same_mesh])
    conflict = None
    if isinstance(option, Conflict):
        conflict, option = option, option.resolved
    elif len(same_mesh) < len(ranked):
        side, i, r = next(t for t in ranked if t[2].mesh != mesh)
        conflict = Conflict(side, i, None, None, (), f"it is on mesh @{r.mesh}, the op runs on @{mesh}", option)
    return _with_followed(rule, mesh, option, same_mesh, conflict, mesh_shapes)


__all__ = [
    "MAX_SEARCH_BITS",
    "Choice",
    "MeshShapes",
    "Request",
    "choice_from_option",
    "choose",
    "same_layout",
    "same_placement",
]
