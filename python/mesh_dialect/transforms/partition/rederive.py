"""An op's loop sharding when the layouts around it do not fit one.

`sharding-propagation` records each op's loop sharding (`mesh.sharding_option`)
and annotates every value around it, so after it the layouts of an op's
operands and results are exactly what one loop sharding implies.  Upstream
passes break that without breaking the program: `linalg-generalize-named-ops`
and elementwise fusion make new ops without the attribute (missing), a
rewrite may keep an attribute that no longer fits the op's loops (stale),
and a fresh init (`tensor.empty`) arrives unannotated.  The `mesh.shard`
annotations survive, since upstream passes cannot look through them, so they
are what partition derives the loop sharding from:

1. the recorded option, when it is valid for the op's current rule and
   gives every annotated result its annotated layout (results without an
   annotation then take the option's layout: theirs was lost);
2. else the choice upstream's search makes from the annotations
   (`interfaces.choice.choose`): results (annotated, else whole, partition's
   default) must be met, operands that are split or partial are followed
   where they agree.  Whole operands cost nothing to cut, so they are not
   asked about.

Operands that do not arrive in the layouts the option needs are resharded in
front of the op, results it cannot produce as annotated after it.

Pure Python on `ShardingRule`s and `Sharding`s: no IR.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...interfaces.choice import Request, choose, same_layout
from ...interfaces.rules import ShardingOption, ShardingRule, option_from_lists, shardings_from_option, validate_option
from ...ir.syntax import Unprintable, decode_sharding_attr
from ...sharding.spec import Sharding

_WHOLE = Sharding(())


@dataclass(frozen=True)
class Derived:
    """The loop sharding an op runs with and the layouts it implies.

    `source`: "option" (the recorded one) or "annotations" (re-derived);
    `stale`: why a recorded option was not used ("" when it was, or when
    there was none)."""

    option: ShardingOption
    operands: tuple[Sharding | None, ...]
    results: tuple[Sharding | None, ...]
    source: str
    stale: str = ""


def recorded_option(
    text: str, rule: ShardingRule, mesh: str, mesh_shape: Sequence[int]
) -> tuple[ShardingOption | None, str]:
    """(the option, "") when `text` (a `mesh.sharding_option`) is a loop
    sharding of `rule` on `mesh`, else (None, why it is stale)."""
    try:
        name, split, partial, _kind, halos, offsets = decode_sharding_attr(text)
    except Unprintable:
        return None, f"it is not a #mesh.sharding: {text}"
    if name[1:] != mesh:
        return None, f"it is on mesh {name}, the function on @{mesh}"
    if partial or halos or offsets:
        return None, "a sharding option lists split axes per loop only"
    try:
        option = option_from_lists(split, rule.num_loops)
        for axes in option:
            for a in axes:
                if not 0 <= a < len(mesh_shape):
                    raise ValueError(f"mesh axis {a} is out of range for @{mesh} of rank {len(mesh_shape)}")
        validate_option(rule, option)
    except ValueError as e:
        return None, str(e)
    return option, ""


def derive(
    rule: ShardingRule,
    mesh: str,
    operands: Sequence[Sharding | None],
    results: Sequence[Sharding | None],
    recorded: ShardingOption | None = None,
    mesh_shape: Sequence[int] | None = None,
    stale: str = "",
) -> Derived:
    """The loop sharding of an op whose operands are laid out as `operands`
    and whose results are annotated as `results` (None: not annotated; for
    operands, not a tensor or whole), per the module docstring."""
    shapes = None if mesh_shape is None else {mesh: tuple(mesh_shape)}
    if recorded is not None:
        need_operands, need_results = shardings_from_option(rule, recorded, mesh_shape)
        wrong = [
            (i, have, need)
            for i, (have, need) in enumerate(zip(results, need_results))
            if have is not None and need is not None and not same_layout(have, need)
        ]
        if not wrong:
            return Derived(recorded, need_operands, need_results, "option")
        i, have, need = wrong[0]
        stale = f"it produces result {i} as {need} but the result is annotated {have}"
    result_requests = [
        [] if m is None else [Request(mesh, _WHOLE if s is None else s, True)]
        for s, m in zip(results, rule.result_maps)
    ]
    operand_requests = [
        None if s is None or m is None or s.is_replicated else Request(mesh, s, False)
        for s, m in zip(operands, rule.operand_maps)
    ]
    choice = choose(rule, operand_requests, result_requests, shapes)
    if choice is None:  # no tensor around the op: nothing is split
        option: ShardingOption = ((),) * rule.num_loops
        need_operands, need_results = shardings_from_option(rule, option, mesh_shape)
        return Derived(option, need_operands, need_results, "annotations", stale)
    return Derived(choice.option, choice.operands, choice.results, "annotations", stale)


def option_text(option: ShardingOption) -> str:
    """`[[0], [], [1]]`, as `mesh.sharding_option` spells it."""
    return "[" + ", ".join("[" + ", ".join(str(a) for a in axes) + "]" for axes in option) + "]"


__all__ = ["Derived", "derive", "option_text", "recorded_option"]
