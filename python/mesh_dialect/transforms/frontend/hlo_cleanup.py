"""What XLA does to an exported module before it partitions, and a plan
must not pay for: duplicate hlo ops merged, dead ones dropped.

Only ops with a built-in sharding rule are touched (`registry.is_pure_hlo`):
each computes its results from its operands alone (no effect, no
collective, no custom call), so two alike compute the same values and one
nothing reads may go.  JAX's exports hold both: `jnp.var` computes the
mean `jnp.mean` already did, and `jax.grad` exports the forward pass's
loss beside the gradient it returns."""

from __future__ import annotations

from mlir import ir


def _pure_hlo_ops(func: ir.Operation, laid_out: set[ir.Value] | None = None) -> list[ir.Operation]:
    """The function's pure hlo ops (`registry.is_pure_hlo`) at any depth, in
    pre-order (a value's users come after its producer), but none inside
    another (a reducer's body): erasing an op erases what it holds.
    `laid_out` gets the values that have a layout of their own (a
    `mesh.shard` of them that is not for their users: an op's
    `sdy.sharding`)."""
    from ...interfaces.registry import is_pure_hlo  # (a large module: only for modules with hlo ops)

    found: list[ir.Operation] = []

    def collect(op: ir.Operation) -> ir.WalkResult:
        name = op.name
        if is_pure_hlo(name):
            found.append(op)
            return ir.WalkResult.SKIP
        if name == "mesh.shard" and laid_out is not None and "annotate_for_users" not in op.attributes:
            laid_out.add(op.operands[0])
        return ir.WalkResult.ADVANCE

    func.walk(collect, ir.WalkOrder.PRE_ORDER)
    return found


def _outer_values(op: ir.Operation) -> tuple | None:
    """The values from outside the op that its regions read, in the order
    they are met (their printed names say only that order); None when a
    region has other than one block or holds a region itself."""
    outer: list[ir.Value] = []
    for region in op.regions:
        blocks = list(region.blocks)
        if len(blocks) != 1:
            return None
        inside = set(blocks[0].arguments)
        for inner in blocks[0].operations:
            inner = inner.operation
            if len(inner.regions):
                return None
            outer += (v for v in inner.operands if v not in inside)
            inside.update(inner.results)
    return tuple(outer)


def merge_duplicate_hlo(func: ir.Operation) -> None:
    """Replace each pure hlo op that repeats an earlier one of its block
    (same name, attributes, properties, operands, result types and regions)
    by that one.  Ops are met in program order, so a duplicate's users
    become duplicates in turn.  Ops that agree on their name, attributes,
    operands, result types and the values their regions read are told
    apart by how each prints alone (`registry.properties_text`: an
    unregistered op keeps its properties, a constant's value, out of
    `op.attributes`), which is asked only of such ops."""
    from ...interfaces.registry import properties_text

    # per key, the first op met with it (its text not yet asked), then the
    # ops met by their text
    seen: dict[tuple, tuple[ir.Operation, dict[str, ir.Operation]]] = {}
    laid_out: set[ir.Value] = set()
    for op in _pure_hlo_ops(func, laid_out):
        outer = _outer_values(op) if len(op.regions) else ()
        if outer is None:
            continue
        try:
            attributes = tuple(op.attributes.items())
        except TypeError:  # (an attribute the bindings cannot hand over: a dense one of complex elements)
            continue
        key = (op.block, op.name, attributes, tuple(op.operands), tuple(op.results.types), outer)
        found = seen.get(key)
        if found is None:
            seen[key] = (op, {})
            continue
        first_met, by_text = found
        if not by_text:
            by_text[properties_text(first_met)] = first_met
        first = by_text.setdefault(properties_text(op), op)
        if first is op:
            continue
        if any(r in laid_out for r in (*op.results, *first.results)):
            continue  # (two layouts given to one value: left to the user's intent)
        for mine, theirs in zip(op.results, first.results, strict=True):
            mine.replace_all_uses_with(theirs)
        op.erase()


def drop_dead_hlo(func: ir.Operation) -> None:
    """Erase the pure hlo ops nothing reads.  Users come after their
    producers in pre-order, so one pass backwards drops whole dead chains."""
    for op in reversed(_pure_hlo_ops(func)):
        if all(next(iter(r.uses), None) is None for r in op.results):
            op.erase()
