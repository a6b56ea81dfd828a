"""Detectors of accesses whose mask or address comes from loaded data, or whose mask the
Ascend mask analysis cannot read: data-dependent masks, scatter atomics, reversed bounds,
transposed tile reads."""

from __future__ import annotations

import ast

from diagnose.triage.detectors import Match, detector
from diagnose.triage.detectors.memory import (
    MEMORY_OPS,
    _match,
    depends_on,
    memory_ops,
    pointer_of,
    strided_fast_axis,
)
from diagnose.triage.detectors.model import (
    JitKernel,
    KernelModule,
    ShapeInference,
    call_name,
    is_tile,
    kwarg,
)

ATOMICS = tuple(op for op in MEMORY_OPS if op.startswith("atomic"))


def loaded_names(kernel: JitKernel) -> set[str]:
    """Local names bound to a value that contains a tl.load (`x = tl.load(p).to(f32)` too)."""
    return {name for name, stmts in kernel.assigns.items()
            if any(isinstance(n, ast.Call) and call_name(n) == "load"
                   for s in stmts if getattr(s, "value", None) is not None
                   for n in ast.walk(s.value))}  # type: ignore[attr-defined]


def _data_terms(kernel: JitKernel, node: ast.expr, line: int) -> list[str]:
    """Loaded tiles a mask or address reads, directly or through local names."""
    shapes = ShapeInference(kernel)
    deps = depends_on(kernel, node) & loaded_names(kernel)
    return sorted(d for d in deps if is_tile(shapes.shape(ast.Name(d, ast.Load(), lineno=line),
                                                         line)))


@detector("data-mask", ("ascend",))
def data_dependent_mask(module: KernelModule, backend: str) -> list[Match]:
    """A load or store masked by a condition on loaded values: the Ascend mask analysis only
    reads index bounds, so the access becomes a full transfer plus a select (a store: a read
    of the destination, a select and a full write)."""
    matches = []
    for kernel in module.kernels.values():
        for op in memory_ops(kernel):
            mask = kwarg(op, "mask") or (op.args[2] if call_name(op) == "store" and len(op.args) > 2
                                         else op.args[1] if call_name(op) == "load"
                                         and len(op.args) > 1 else None)
            if mask is None or call_name(op) in ATOMICS:
                continue
            data = _data_terms(kernel, mask, op.lineno)
            if not data:
                continue
            store = call_name(op) == "store"
            matches.append(_match(
                module, kernel, op, "data-mask", 0.75 if store else 0.65,
                f"`tl.{call_name(op)}` in `{kernel.name}` is masked by `{ast.unparse(mask)}`, "
                f"which depends on the loaded values {', '.join(data)}: the mask analysis only "
                "understands index bounds, so the access becomes a full transfer plus a select"
                + (" (a read of the destination, a select and a full write)." if store else "."),
                ["TTIR after discrete-mask-access-conversion: arith.select added at this access",
                 "msprof: MTE2 reads of the destination before each MTE3 write"],
                mask=ast.unparse(mask), data=data, store=store))
    return matches


@detector("scatter-atomics")
def scatter_atomics(module: KernelModule, backend: str) -> list[Match]:
    """Atomics whose address is a loaded index tile: one read-modify-write per element at
    data-chosen addresses (a histogram, an index_add), serialised wherever indices collide."""
    matches = []
    for kernel in module.kernels.values():
        for call in kernel.calls(*ATOMICS):
            pointer = pointer_of(call)
            if pointer is None:
                continue
            data = _data_terms(kernel, pointer, call.lineno)
            if not data:
                continue
            matches.append(_match(
                module, kernel, call, "scatter-atomics", 0.75,
                f"`tl.{call_name(call)}` in `{kernel.name}` scatters one atomic per element to "
                f"addresses chosen by the loaded index {', '.join(data)}: colliding indices "
                "serialise, and "
                + ("the Ascend front end scalarises the data-addressed atomic into an "
                   "element loop." if backend == "ascend" else
                   "each element is a global read-modify-write.")
                + " Aggregating first (an on-chip histogram, or sorting by index and summing "
                "runs) leaves one atomic or store per distinct index.",
                ["TTIR after triton-to-unstructure: scf.for of scalar atomics"
                 if backend == "ascend" else "PTX: red/atom.global per element",
                 "profile: time grows with index collisions"], index_tiles=data))
    return matches


def _bound_first(cmp: ast.Compare, kernel: JitKernel, line: int) -> bool:
    """`N > offs`, `N - 1 >= offs`: the scalar bound on the left of an index tile."""
    shapes = ShapeInference(kernel)
    if len(cmp.ops) != 1 or not isinstance(cmp.ops[0], ast.Gt | ast.GtE | ast.Lt | ast.LtE):
        return False
    left, right = shapes.shape(cmp.left, line), shapes.shape(cmp.comparators[0], line)
    return left == () and is_tile(right) and not _loaded(kernel, cmp)


def _loaded(kernel: JitKernel, node: ast.expr) -> bool:
    return bool(depends_on(kernel, node) & loaded_names(kernel))


def _compares(mask: ast.expr) -> list[ast.Compare]:
    return [n for n in ast.walk(mask) if isinstance(n, ast.Compare)]


@detector("reversed-mask", ("ascend",))
def reversed_mask(module: KernelModule, backend: str) -> list[Match]:
    """A bounds mask written bound-first (`N > offs`) or through an operator the mask analysis
    does not parse (`!=`, `==`): MaskState::parse reads `index < bound` forms, so the access
    falls back to a full transfer plus a select."""
    matches = []
    for kernel in module.kernels.values():
        for op in memory_ops(kernel):
            mask = kwarg(op, "mask")
            if mask is None or call_name(op) in ATOMICS or _loaded(kernel, mask):
                continue
            reversed_ = [c for c in _compares(mask) if _bound_first(c, kernel, op.lineno)]
            odd = [c for c in _compares(mask) if isinstance(c.ops[0], ast.NotEq | ast.Eq)]
            if not (reversed_ or odd):
                continue
            which = (reversed_ or odd)[0]
            matches.append(_match(
                module, kernel, op, "reversed-mask", 0.6,
                f"the mask `{ast.unparse(mask)}` of `tl.{call_name(op)}` in `{kernel.name}` "
                f"compares as `{ast.unparse(which)}`"
                + (", bound first" if reversed_ else ", an equality the mask analysis does not "
                   "read as a range")
                + ": written as `index < bound` the access stays one masked transfer.",
                ["TTIR after discrete-mask-access-conversion: arith.select added at this access"],
                mask=ast.unparse(mask)))
    return matches


@detector("transposed-tile", ("ascend",))
def transposed_tile(module: KernelModule, backend: str) -> list[Match]:
    """A 2-D tile read with its last axis strided while another axis is unit-stride: on the
    NPU each row of the transfer is one element; loading the contiguous orientation and
    transposing on chip (tl.trans) keeps every transfer contiguous."""
    matches = []
    for kernel in module.kernels.values():
        for op in memory_ops(kernel):
            if call_name(op) != "load":
                continue
            found = strided_fast_axis(module, kernel, op)
            if found is None or not found[2]:
                continue
            matches.append(_match(
                module, kernel, op, "transposed-tile", 0.7,
                f"`tl.load` in `{kernel.name}` reads a tile whose last axis walks memory with "
                f"stride `{found[1]}` while a slower axis is the contiguous one: load the "
                "contiguous orientation and transpose on chip.",
                ["TTIR after triton-to-structured: non-unit stride on the innermost dimension",
                 "linalg: memref.reinterpret_cast with a non-unit last stride"],
                multiplier=found[1]))
    return matches
