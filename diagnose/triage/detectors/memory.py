"""Detectors of how a kernel addresses memory: strides without hints, strided fast axes,
int64 and div/mod index math, redundant selects, scalar element loops, indirect gathers."""

from __future__ import annotations

import ast
import copy

from diagnose.triage.detectors import Match, detector
from diagnose.triage.detectors.model import (
    MEMORY_OPS,
    JitKernel,
    KernelModule,
    ShapeInference,
    additive_terms,
    call_name,
    constexpr_values,
    evaluate,
    is_tile,
    kwarg,
    name_node,
    names_in,
    reaching_binding,
    uncast,
)


def pointer_of(call: ast.Call) -> ast.expr | None:
    return call.args[0] if call.args else kwarg(call, "pointer")


def memory_ops(kernel: JitKernel) -> list[ast.Call]:
    ops = [c for c in kernel.calls(*MEMORY_OPS) if pointer_of(c) is not None]
    return sorted(ops, key=lambda c: (c.lineno, c.col_offset))


def depends_on(kernel: JitKernel, node: ast.AST, stop: frozenset[str] | set[str] = frozenset()) -> set[str]:
    """Names `node` reads, following every assignment of each local name transitively (a name in
    `stop` is reached but not followed)."""
    seen: set[str] = set()
    todo = list(names_in(node))
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in stop:
            continue
        for stmt in kernel.assigns.get(name, []):
            value = getattr(stmt, "value", None)
            if value is not None:
                todo.extend(names_in(value))
    return seen


SCAN_COMBINES = ("where", "minimum", "maximum")


def scan_step(kernel: JitKernel, value: ast.AST, name: str) -> bool:
    """`value`, assigned to `name` in a loop, combines the carried value with a step value that
    does not read it by an associative operation: `c = tl.where(cond, x, c)` (the last position
    a condition picked, a running argmax), `c = tl.minimum(c, v)` / `tl.maximum(c, v)`. Each
    step is then a scan's combine, however the condition reads the step's data."""
    if not isinstance(value, ast.Call) or call_name(value) not in SCAN_COMBINES:
        return False
    args = value.args
    if call_name(value) == "where":
        if len(args) != 3:
            return False
        kept = [a for a in args[1:] if isinstance(a, ast.Name) and a.id == name]
        others = [args[0], *(a for a in args[1:] if a not in kept)]
    else:
        if len(args) != 2:
            return False
        kept = [a for a in args if isinstance(a, ast.Name) and a.id == name]
        others = [a for a in args if a not in kept]
    return len(kept) == 1 and not any(name in depends_on(kernel, o) | names_in(o) for o in others)


def stored_scan_state(kernel: JitKernel, loop: ast.For | ast.While) -> str | None:
    """A name set before the loop that each step combines with the step's value (scan_step) and
    that a store inside the loop writes at every step: the loop emits every prefix of a scan
    (the last obstacle to the left of each cell), so its one-element steps are a scan's, not
    loads to widen. The name, or None."""
    inside = {id(n) for n in ast.walk(loop)}
    stored = set().union(*(depends_on(kernel, c.args[1]) | names_in(c.args[1])
                           for c in ast.walk(loop) if isinstance(c, ast.Call)
                           and call_name(c) == "store" and len(c.args) >= 2))
    for stmt in ast.walk(loop):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
            before = any(id(a) not in inside for a in kernel.assigns.get(name, []))
            if before and name in stored and scan_step(kernel, stmt.value, name):
                return name
    return None


_POINTER_THROUGH = ("multiple_of", "max_contiguous", "make_block_ptr", "advance",
                    "make_tensor_descriptor")


def pointer_params(kernel: JitKernel, pointer: ast.AST) -> set[str]:
    """The parameters an address is built on: the terms it adds (`x_ptr + row * n + cols` ->
    x_ptr), through local names and block-pointer calls, not the integers scaled into its
    offsets (`n`). When no added term is a parameter (an address built some other way), every
    name the address depends on, as `depends_on` gives."""
    found: set[str] = set()
    seen: set[str] = set()
    todo: list[ast.AST] = [pointer]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            todo += [node.left, node.right]
        elif isinstance(node, ast.Call) and call_name(node) in _POINTER_THROUGH:
            base = kwarg(node, "base") or (node.args[0] if node.args else None)
            if base is not None:
                todo.append(base)
        elif isinstance(node, ast.Subscript):  # ptrs[:, None]
            todo.append(node.value)
        elif isinstance(node, ast.Name) and node.id not in seen:
            seen.add(node.id)
            if kernel.param(node.id) is not None:
                found.add(node.id)
            for stmt in kernel.assigns.get(node.id, []):
                value = getattr(stmt, "value", None)
                if value is not None:
                    todo.append(value)
    return found or depends_on(kernel, pointer)


def bound_to_call(kernel: JitKernel, name: str) -> set[str]:
    """Local names bound to a value that contains a call of `name` (`x = tl.load(p).to(f32)`)."""
    return {local for local, stmts in kernel.assigns.items()
            if any(isinstance(n, ast.Call) and call_name(n) == name
                   for s in stmts if getattr(s, "value", None) is not None
                   for n in ast.walk(s.value))}  # type: ignore[attr-defined]


def selected_by_value(kernel: JitKernel) -> set[str]:
    """Local names bound to a value built from a per-element choice between numbers
    (`bucket = (tl.where(d > 0, 16, 0) + tl.where(a < 8, a, far)).to(tl.int32)`, a helper's
    return inlined): an index the comparisons choose for each lane, not an affine one. A clamp
    of an index tile (`tl.where(m, offs, 0)`) keeps a tile branch and is not such a choice."""
    def numbers(node: ast.Call) -> bool:
        return len(node.args) == 3 and all(_number(a) for a in node.args[1:])
    return {local for local, stmts in kernel.assigns.items()
            if any(isinstance(n, ast.Call) and call_name(n) == "where" and numbers(n)
                   for st in stmts if getattr(st, "value", None) is not None
                   for n in ast.walk(st.value))}  # type: ignore[attr-defined]


def _number(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp):
        return _number(node.operand)
    return isinstance(node, ast.Constant) and isinstance(node.value, int | float)


def _match(module: KernelModule, kernel: JitKernel, node: ast.AST, detector_id: str,
           confidence: float, message: str, needed: list[str], **facts: object) -> Match:
    return Match(detector_id, kernel.name, getattr(node, "lineno", kernel.node.lineno),
                 module.snippet(node), round(confidence, 2), message, needed, dict(facts),
                 end_line=getattr(node, "end_lineno", None))


@detector("stride-no-hints", ("cuda",))
def runtime_strides_without_hints(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for kernel in module.kernels.values():
        if kernel.calls("multiple_of", "max_contiguous", "assume"):
            continue
        strides = {p.name for p in kernel.params if not p.constexpr and "stride" in p.name.lower()}
        for op in memory_ops(kernel):
            used = sorted(strides & depends_on(kernel, pointer_of(op)))  # type: ignore[arg-type]
            if not used:
                continue
            # Triton already specializes integer arguments equal to 1 or divisible by 16,
            # so the hint is only missing when the caller's strides are ragged: keep it low.
            matches.append(_match(
                module, kernel, op, "stride-no-hints", 0.3,
                f"`{kernel.name}` addresses memory with runtime strides {', '.join(used)} and "
                "states no tl.multiple_of/tl.max_contiguous hint, so vector width depends on "
                "the caller passing strides divisible by 16.",
                ["TTIR: tt.divisibility on the stride arguments of the specialized kernel",
                 "PTX: ld.global.v4/v2 versus ld.global.b32 for this access",
                 "sizes: whether the ragged size gives strides that are not multiples of 16"],
                strides=used))
            break
    return matches


def _multiplier_strength(kernel: JitKernel, module: KernelModule, factor: ast.expr
                         ) -> float | None:
    """How surely a scalar factor multiplying the fast-axis index is not 1 (None: surely 1)."""
    if isinstance(factor, ast.Constant) and isinstance(factor.value, int):
        if factor.value <= 1:
            return None
        # stride 2 still uses half of each sector; wide strides waste nearly all of it
        return 0.55 if factor.value == 2 else 0.7 if factor.value < 8 else 0.8
    if isinstance(factor, ast.Name):
        param = kernel.param(factor.id)
        if param is not None:
            if "stride" in param.name.lower():
                # An inner stride is normally 1 and specialized to constexpr 1 at launch; a
                # row stride (by name, or `t.stride(0)` of a matrix at the launch) never is.
                outer = "row" in param.name.lower() or _outer_stride_at_launch(module, kernel, param.name)
                return 0.55 if outer else None
            if param.constexpr:
                values = constexpr_values(module, kernel).get(param.name, [])
                if values and all(isinstance(v, int) and v <= 1 for v in values):
                    return None
                return 0.7
            return 0.6  # a size such as N or n_cols: walking a column of a row-major matrix
    deps = depends_on(kernel, factor)
    if any("stride" in d.lower() for d in deps):
        return None
    return 0.45


def _floor_divided(kernel: JitKernel, node: ast.expr) -> bool:
    """True when `node` is (a name bound to) a floor division: a flattened index's row."""
    values = [node] if not isinstance(node, ast.Name) else [
        getattr(s, "value", None) for s in kernel.assigns.get(node.id, [])]
    return any(isinstance(v, ast.BinOp) and isinstance(v.op, ast.FloorDiv) for v in values)


def _outer_stride_at_launch(module: KernelModule, kernel: JitKernel, name: str) -> bool:
    """True when a launch passes `t.stride(0)` for `name` and the launcher shows `t` has rank
    >= 2 (`t.shape[1]`, `t.stride(1)`, `M, N = t.shape`): its leading stride is a whole row;
    or passes a size (`t.shape[1]`, `t.size(1)`, a name unpacked from `t.shape`): the row
    length of a contiguous matrix, which is what walking a column steps by."""
    for launch in module.launches:
        arg = launch.args.get(name) if launch.kernel == kernel.name else None
        if arg is not None and launch.launcher is not None and _is_size(launch.launcher, arg):
            return True
        if (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute)
                and arg.func.attr == "stride" and len(arg.args) == 1
                and isinstance(arg.args[0], ast.Constant) and isinstance(arg.args[0].value, int)
                and arg.args[0].value >= 0 and launch.launcher is not None
                and _has_axis_after(launch.launcher, ast.unparse(arg.func.value), arg.args[0].value)):
            return True
        if arg is not None and launch.launcher is not None and _swapped_axis_stride(launch.launcher, arg):
            return True
    return False


def _swapped_axis_stride(launcher: ast.FunctionDef, arg: ast.expr) -> bool:
    """`v.stride(k)` of a view the launcher made with `t.transpose(i, j)` (or `permute`, `.t()`,
    `.T`, `.mT`) where axis k is one the view moved: over a contiguous `t` that stride is a
    whole row of `t`, not 1, though the kernel indexes it as its inner axis."""
    if not (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "stride"
            and len(arg.args) == 1 and isinstance(arg.args[0], ast.Constant)
            and isinstance(arg.func.value, ast.Name)):
        return False
    axis, view = arg.args[0].value, arg.func.value.id
    for node in ast.walk(launcher):
        if not isinstance(node, ast.Assign):
            continue
        for target, value in _pairs(node):
            if isinstance(target, ast.Name) and target.id == view and _moves_axis(value, axis):
                return True
    return False


def _pairs(node: ast.Assign) -> list[tuple[ast.expr, ast.expr]]:
    """(target, value) pairs of an assignment, tuple assignments unpacked element-wise."""
    target, value = node.targets[0], node.value
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
        return list(zip(target.elts, value.elts, strict=True))
    return [(target, value)]


def _moves_axis(view: ast.expr, axis: object) -> bool:
    """Whether the view expression puts another axis of its base at position `axis`."""
    if isinstance(view, ast.Attribute) and view.attr in ("T", "mT"):
        return True
    if not (isinstance(view, ast.Call) and isinstance(view.func, ast.Attribute)):
        return False
    dims = [a.value if isinstance(a, ast.Constant) else None for a in view.args]
    if view.func.attr == "t":
        return True
    if view.func.attr in ("transpose", "swapaxes") and len(dims) == 2:
        return axis in dims or any(isinstance(d, int) and d < 0 for d in dims)
    if view.func.attr == "permute" and isinstance(axis, int) and axis < len(dims):
        return dims[axis] != axis
    return False


def _is_size(launcher: ast.FunctionDef, arg: ast.expr) -> bool:
    """`t.shape[i]`, `t.size(i)`, or a name the launcher unpacks from / binds to a shape."""
    def sized(node: ast.expr) -> bool:
        return (isinstance(node, ast.Subscript) and ".shape[" in ast.unparse(node)) or (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "size" and len(node.args) == 1)
    if sized(arg):
        return True
    if not isinstance(arg, ast.Name):
        return False
    for node in ast.walk(launcher):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id == arg.id and sized(node.value):
                return True
            if (isinstance(target, ast.Tuple) and ast.unparse(node.value).endswith(".shape")
                    and any(isinstance(e, ast.Name) and e.id == arg.id for e in target.elts)):
                return True
    return False


def _has_axis_after(launcher: ast.FunctionDef, tensor: str, axis: int) -> bool:
    """True when the launcher shows `tensor` has an axis after `axis` (`t.shape[j]`, `t.size(j)`,
    `t.stride(j)` with j > axis, or `a, b, c = t.shape` with more than axis + 1 names): then
    `t.stride(axis)` of a contiguous tensor spans at least a whole row, it is not the unit stride."""
    for node in ast.walk(launcher):
        if isinstance(node, ast.Subscript) and ast.unparse(node.value) == f"{tensor}.shape":
            j = node.slice.value if isinstance(node.slice, ast.Constant) else None
            if isinstance(j, int) and (j > axis or j < 0):
                return True
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("size", "stride") and ast.unparse(node.func.value) == tensor
                and len(node.args) == 1 and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, int) and node.args[0].value > axis):
            return True
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple)
                and len(node.targets[0].elts) > axis + 1 and ast.unparse(node.value) == f"{tensor}.shape"):
            return True
    return False


def _factors(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _factors(node.left) + _factors(node.right)
    return [node]


def _unit_slow_axis(terms: list[ast.expr], shapes: ShapeInference, line: int) -> bool:
    """True when an unscaled index term varies along a slower axis only: the tile is
    contiguous along that axis, i.e. it is a transposed view of memory."""
    for term in terms:
        if len(_factors(term)) != 1:
            continue
        shape = shapes.shape(term, line)
        if is_tile(shape) and len(shape) >= 2 and shape[-1] == 1:  # type: ignore[arg-type]
            return True
    return False


def _scaled_tiles(terms: list[ast.expr], shapes: ShapeInference, line: int, outer: tuple = (),
                  depth: int = 0) -> list[tuple[list[ast.expr], list[ast.expr]]]:
    """(tile factors, scalar factors) of each product among an address's terms, with a scalar
    factor distributed over a sum it multiplies (`((b * T + t) * F + f) * 2` steps `t` by
    `F * 2`, not by 2): the stride of an index is the product of every scalar around it."""
    found: list[tuple[list[ast.expr], list[ast.expr]]] = []
    for term in terms:
        factors = _factors(term)
        index = [f for f in factors if is_tile(shapes.shape(f, line))]
        scalars = [*outer, *(f for f in factors if shapes.shape(f, line) == ())]
        if len(index) == 1 and scalars and depth < 4:
            inner = additive_terms(index[0], shapes, line)
            if len(inner) > 1:  # a sum of terms: each carries the scalars around it
                found += _scaled_tiles(inner, shapes, line, tuple(scalars), depth + 1)
                continue
        if len(factors) + len(outer) >= 2:
            found.append((index, scalars))
    return found


def strided_fast_axis(module: KernelModule, kernel: JitKernel, op: ast.Call
                      ) -> tuple[float, str, bool] | None:
    """(confidence, multiplier, transposed) when the fastest-varying index of `op` is scaled.

    `transposed` means another axis of the tile is unit-stride; tritongpu-coalesce can then
    order the layout along that axis, so on CUDA the cost is a layout conversion rather than
    uncoalesced access."""
    shapes = ShapeInference(kernel)
    terms = additive_terms(pointer_of(op), shapes, op.lineno)  # type: ignore[arg-type]
    transposed = _unit_slow_axis(terms, shapes, op.lineno)
    for index, scalars in _scaled_tiles(terms, shapes, op.lineno):
        if len(index) != 1 or not scalars:
            continue
        shape = shapes.shape(index[0], op.lineno)
        if not shape or shape[-1] == 1:
            continue  # varies along a slower axis only
        if _floor_divided(kernel, index[0]):
            continue  # `offs // n` holds still across neighbouring lanes: a row, not a stride
        if (names_in(index[0]) | depends_on(kernel, index[0])) \
                & (bound_to_call(kernel, "load") | selected_by_value(kernel)):
            continue  # a lane index computed from loaded data or selected: a gather, no stride
        strengths = [s for s in (_multiplier_strength(kernel, module, f) for f in scalars)
                     if s is not None]
        multiplier = " * ".join(ast.unparse(f) for f in scalars)
        if transposed:
            return 0.6, multiplier, True
        if strengths:
            return max(strengths), multiplier, False
    return None


# Calls whose result depends on which axis of a tile is which: a transposed tile meeting one of
# them has to be turned on chip; one meeting none of them can be loaded the other way round.
ORIENTED_CALLS = ("dot", "dot_scaled", "trans", "permute", "reshape", "view", "split", "join", "interleave")


def holding(kernel: JitKernel, op: ast.Call) -> set[str]:
    """Local names whose value contains `op` (`px = tl.load(...)`, `dx = tl.load(...) - px`)."""
    return {name for name, stmts in kernel.assigns.items()
            if any(n is op for s in stmts for n in ast.walk(s))}


def _tile_users(kernel: JitKernel, names: set[str], shapes: ShapeInference) -> set[str]:
    """`names` and every local name computed from one of them that is still a tile with two
    varying axes (or of unknown shape), through such names only: a reduction to a row or a
    scalar ends the path, since a reduced vector is the same whichever way the tile was laid out."""
    tiles = {}  # local -> still a tile with two varying axes (or of unknown shape), read once
    users, grown = set(names), True
    while grown:
        grown = False
        for local, stmts in kernel.assigns.items():
            if local in users or not any(names_in(v) & users for st in stmts
                                         if (v := getattr(st, "value", None)) is not None):
                continue
            if local not in tiles:
                shape = shapes.shape(name_node(local))
                tiles[local] = shape is None or (is_tile(shape) and len(shape) >= 2 and shape[-1] != 1)
            if tiles[local]:
                users.add(local)
                grown = True
    return users


def two_dimensional(kernel: JitKernel, op: ast.Call, shapes: ShapeInference | None = None) -> bool:
    """`op` addresses a tile with a second axis that varies (not a row or a column)."""
    pointer = pointer_of(op)
    shapes = shapes or ShapeInference(kernel)
    shape = shapes.shape(pointer, op.lineno) if pointer is not None else None
    return is_tile(shape) and len(shape) >= 2 and shape[-1] != 1  # type: ignore[arg-type]


def orientation_bound(module: KernelModule, kernel: JitKernel, op: ast.Call) -> bool:
    """The tile `op` loads meets something whose axes are fixed: a dot, a reshape or transpose,
    or another 2-D access (a store of its values, a tile it is combined with) whose last axis is
    the unit-stride one. When it meets none (it is reduced, or stored back in its own order),
    the whole computation can walk the contiguous axis instead; no on-chip transpose is needed."""
    names = holding(kernel, op)
    if not names:
        return True  # used inline: which orientation its consumer needs is not read here
    shapes = ShapeInference(kernel)
    users = _tile_users(kernel, names, shapes)

    def reads(node: ast.AST) -> bool:
        return bool(names_in(node) & users)

    if any(isinstance(n, ast.Call) and call_name(n) in ORIENTED_CALLS and any(reads(a) for a in n.args)
           for n in ast.walk(kernel.node)):
        return True
    for other in memory_ops(kernel):
        if other is op or call_name(other) not in ("load", "store"):
            continue
        if call_name(other) == "store":
            value = other.args[1] if len(other.args) > 1 else kwarg(other, "value")
            if value is None or not reads(value):
                continue
        else:
            others = holding(kernel, other)
            if not others or others & users or not any(
                    others & depends_on(kernel, name_node(u)) for u in users):
                continue  # not combined with this tile
        if not two_dimensional(kernel, other, shapes):
            continue  # a row or a reduced vector: no second axis to disagree on
        if strided_fast_axis(module, kernel, other) is None:
            return True  # a tile whose last axis is the unit-stride one
    return False


def _field_offset(op: ast.Call) -> tuple[str, str, int] | None:
    """(operation, pointer without its constant, the constant) for `ptr + ... + c`, c >= 0."""
    ptr = pointer_of(op)
    if isinstance(ptr, ast.BinOp) and isinstance(ptr.op, ast.Add) and isinstance(ptr.right, ast.Constant) \
            and isinstance(ptr.right.value, int):
        return call_name(op), ast.unparse(ptr.left), ptr.right.value
    return (call_name(op), ast.unparse(ptr), 0) if ptr is not None else None


def _interleaved_fields(kernel: JitKernel, op: ast.Call, multiplier: str) -> bool:
    """`op` is one of K accesses `p + i * K + c`, c = 0..K-1 (K <= 4), of the same kind: the
    fields of an array of small structs (x, y, z; r, g, b) that together touch every address,
    so the sectors one access leaves unused the next fills from L1/L2."""
    if not multiplier.isdigit() or not 2 <= int(multiplier) <= 4:
        return False
    mine = _field_offset(op)
    if mine is None:
        return False
    offsets = {f[2] for other in memory_ops(kernel) if (f := _field_offset(other)) is not None
               and f[:2] == mine[:2]}
    return set(range(int(multiplier))) <= offsets


def fields_walked_by_loop(kernel: JitKernel, op: ast.Call, multiplier: str,
                          shapes: ShapeInference | None = None) -> ast.For | None:
    """The loop `for k in range(S)` around `op` when its address is `base + i * S + k`: one
    strided access per field of S-wide records, the loop visiting every field in turn (the
    same bytes as one [BLOCK, S] tile of whole records)."""
    pointer = pointer_of(op)
    if pointer is None:
        return None
    shapes = shapes or ShapeInference(kernel)
    terms = [ast.unparse(t) for t in additive_terms(pointer, shapes, op.lineno)]
    for loop in _loops_around(kernel, op):
        if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)
                and isinstance(loop.iter, ast.Call) and call_name(loop.iter) in ("range", "static_range")):
            continue
        args = loop.iter.args
        stop = args[0] if len(args) == 1 else args[1] if len(args) == 2 and ast.unparse(args[0]) == "0" else None
        if stop is not None and ast.unparse(stop) == multiplier and loop.target.id in terms:
            return loop
    return None


# On a GPU the fields of a record of a few words share L1 lines (`_interleaved_fields`); from
# this many words on, neighbouring lanes' fields sit a sector or more apart, so every warp
# request of one field touches a sector per lane, and a store sends each sector to L2 alone.
GPU_RECORD_WORDS = 8


def constant_split(terms: list[ast.expr]) -> tuple[tuple[str, ...], int]:
    """A pointer's terms without their integer constants, and those constants' sum (a field's
    offset within its record)."""
    rest = tuple(sorted(ast.unparse(t) for t in terms
                        if not (isinstance(t, ast.Constant) and isinstance(t.value, int))))
    offset = sum(t.value for t in terms if isinstance(t, ast.Constant) and isinstance(t.value, int))
    return rest, offset


def _kernel_env(module: KernelModule, kernel: JitKernel) -> dict[str, int]:
    """Names a kernel expression may use, as numbers: module constants and the smallest value
    each constexpr parameter takes."""
    env: dict[str, int] = dict(module.constants)
    for name, values in constexpr_values(module, kernel).items():
        ints = [v for v in values if isinstance(v, int)]
        if ints:
            env[name] = min(ints)
    return env


def _as_int(text: str, env: dict[str, int]) -> int | None:
    """A kernel expression (source text) as a number under `env`, or None."""
    try:
        value = evaluate(ast.parse(text, mode="eval").body, env)
    except SyntaxError:
        return None
    return value if isinstance(value, int) else None


def _fields_loop(kernel: JitKernel, op: ast.Call, width: int, shapes: ShapeInference,
                 env: dict[str, int]) -> int | None:
    """K, for a loop `for k in range(K)` around `op` whose counter is a term of the address,
    with the address' constant offset c: c + K <= width and K covering at least half the
    record (the quants after a block's header; every field of a record in turn)."""
    terms = additive_terms(pointer_of(op), shapes, op.lineno)  # type: ignore[arg-type]
    names = {ast.unparse(t) for t in terms}
    _, offset = constant_split(terms)
    for loop in _loops_around(kernel, op):
        if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name) and loop.target.id in names
                and isinstance(loop.iter, ast.Call) and call_name(loop.iter) in ("range", "static_range")
                and len(loop.iter.args) == 1):
            continue
        count = _as_int(ast.unparse(loop.iter.args[0]), env)
        if count is not None and 0 <= offset and offset + count <= width and 2 * count >= width:
            return count
    return None


def _record_width(multiplier: str, env: dict[str, int]) -> int | None:
    """The width of the records a strided access walks: its stride, or, when the stride is a
    known width times a runtime count (`(rows * n_blocks + b) * RECORD`: each row holds
    n_blocks records of RECORD words), that width: each lane's record is still contiguous."""
    whole = _as_int(multiplier, env)
    if whole is not None:
        return whole
    known = [w for w in (_as_int(f, env) for f in multiplier.split(" * ")) if w is not None]
    width = 1
    for w in known:
        width *= w
    return width if known else None


def record_field_groups(module: KernelModule, kernel: JitKernel, shapes: ShapeInference
                        ) -> list[tuple[str, int, int, list[ast.Call]]]:
    """CUDA: loads or stores that each move one field of records at least GPU_RECORD_WORDS
    wide, at addresses that follow the program id, with the kernel's other accesses of the same
    kind covering at least half of each record (`p + 16 * i + 0..15`; `for k in range(S):
    p + S * i + k`), as (kind, record width, fields covered, the accesses). Moving whole records as one [BLOCK, S] tile and
    splitting or joining the fields on chip touches each sector once."""
    groups: dict[tuple[str, ...], tuple[int, set[int], list[ast.Call]]] = {}
    walked: list[tuple[str, int, int, list[ast.Call]]] = []
    broadcast = {id(n.value) for n in ast.walk(kernel.node) if isinstance(n, ast.Subscript)}
    env = _kernel_env(module, kernel)
    for op in memory_ops(kernel):
        kind = call_name(op)
        # records the programs share (a table every program reads, a launch's own slice) or a
        # load spread over a wider tile at once stay in L1/L2 or are outweighed by the work
        # on them: only records the grid partitions, moved at their own shape, are the cost
        if kind not in ("load", "store") or id(op) in broadcast or not _program_axes(kernel, pointer_of(op)):
            continue
        found = strided_fast_axis(module, kernel, op)
        if found is None or found[2]:
            continue
        width = _record_width(found[1], env)
        if width is None or width < GPU_RECORD_WORDS:
            continue
        fields = _fields_loop(kernel, op, width, shapes, env)
        if fields is not None:
            walked.append((kind, width, fields, [op]))
            continue
        rest, offset = constant_split(additive_terms(pointer_of(op), shapes, op.lineno))  # type: ignore[arg-type]
        if 0 <= offset < width:
            _, offsets, ops = groups.setdefault((kind, *rest, str(width)), (width, set(), []))
            offsets.add(offset)
            ops.append(op)
    covered = [(key[0], width, len(offsets), ops) for key, (width, offsets, ops) in groups.items()
               if 2 * len(offsets) >= width]
    return walked + covered


def lane_segment_walk(kernel: JitKernel, op: ast.Call, shapes: ShapeInference) -> str | None:
    """The counter of a unit-step loop along which every lane of `op` walks its own segment:
    the address is a base, a tile of starts read from memory (one segment per lane) and the
    counter (`chars + start + k`), with no index tile among its terms. Each step's lanes then
    touch addresses a segment apart, whatever the segments' lengths."""
    pointer = pointer_of(op)
    if pointer is None:
        return None
    terms = additive_terms(pointer, shapes, op.lineno)
    loaded = bound_to_call(kernel, "load")
    tiles = [t for t in terms if is_tile(shapes.shape(t, op.lineno))]
    if not tiles or any(not (names_in(t) | depends_on(kernel, t)) & loaded
                        or "arange" in ast.unparse(t) for t in tiles):
        return None  # an index tile among the terms: lanes at neighbouring positions
    for loop in _loops_around(kernel, op):
        if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)
                and isinstance(loop.iter, ast.Call) and call_name(loop.iter) == "range"
                and len(loop.iter.args) <= 2):
            continue  # a loop stepping by more than one element walks tiles
        counter = loop.target.id
        if any(isinstance(t, ast.Name) and t.id == counter for t in terms):
            return counter
    return None


@detector("strided-access")
def strided_access(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        record_lines = ({op.lineno for group in record_field_groups(module, kernel, shapes) for op in group[3]}
                        if backend == "cuda" else set())
        for op in memory_ops(kernel):
            counter = lane_segment_walk(kernel, op, shapes)
            if counter is not None:
                matches.append(_match(
                    module, kernel, op, "strided-access", 0.65,
                    f"`{call_name(op)}` in `{kernel.name}` gives each lane its own segment (starts "
                    f"read from memory) and steps all of them by one element per `{counter}`: "
                    "neighbouring lanes touch addresses a segment apart on every step, one "
                    "transfer per lane. Let the program's lanes walk one segment together, a "
                    "contiguous tile of it per step.",
                    ["ncu: l1tex__t_sectors_pipe_lsu_mem_global_op_ld per request near 32"
                     if backend == "cuda" else
                     "TTIR after triton-to-unstructure: scf.for of scalar loads in place of one tensor load",
                     "trace: the access's lanes spread over many sectors on every step"],
                    multiplier="segment", transposed=False))
                continue
            found = strided_fast_axis(module, kernel, op)
            if found is None:
                continue
            confidence, multiplier, transposed = found
            if not transposed and _interleaved_fields(kernel, op, multiplier):
                confidence = min(confidence, 0.35)  # together the fields cover every address
            if backend == "cuda" and op.lineno in record_lines:
                confidence = min(confidence, 0.5)  # whole records on chip: interleaved-fields' reading
            if (not transposed and backend == "ascend" and call_name(op) == "load"
                    and fields_walked_by_loop(kernel, op, multiplier, shapes)):
                confidence = min(confidence, 0.5)  # a loop over the fields: interleaved-fields' idiom
            reoriented = False
            if transposed and backend == "ascend" and call_name(op) == "load":
                if orientation_bound(module, kernel, op):
                    continue  # the transposed-tile detector's idiom: load contiguous, transpose on chip
                confidence, reoriented = 0.7, True
            if (not transposed and backend == "ascend" and call_name(op) == "load"
                    and two_dimensional(kernel, op, shapes) and orientation_bound(module, kernel, op)):
                confidence = min(confidence, 0.5)  # a tile rearranged: the transposed-tile reading
            if transposed and backend == "cuda":
                confidence = 0.4  # coalesced along the other axis, paid for in convert_layout
            needed = (["PTX: scalar ld.global.b32 per element and ncu: "
                       "l1tex__t_sectors_pipe_lsu_mem_global_op_ld per request well above 4",
                       "ncu: dram__throughput below 40% of peak while the kernel is memory bound"]
                      if backend == "cuda" else
                      ["TTIR after triton-to-unstructure: scf.for of scalar loads in place of "
                       "one tensor load", "msprof: high aiv_scalar_ratio, low aiv_mte2 bandwidth"])
            matches.append(_match(
                module, kernel, op, "strided-access", confidence,
                f"`{call_name(op)}` in `{kernel.name}` walks its fastest-varying index with "
                f"stride `{multiplier}`"
                + (" while a slower axis is the contiguous one; the tile is only reduced or stored "
                   "in the same order, so the whole computation can walk the contiguous axis "
                   "(no on-chip transpose)." if reoriented else
                   " while a slower axis is the contiguous one (a transposed tile)."
                   if transposed else ", so neighbouring lanes touch addresses far apart."),
                needed, multiplier=multiplier, transposed=transposed))
    return matches


@detector("int64-index")
def int64_index(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        for call in kernel.calls("to", "cast"):
            if "int64" not in ast.unparse(call):
                continue
            source = call.func.value if isinstance(call.func, ast.Attribute) \
                and call_name(call) == "to" else (call.args[0] if call.args else call)
            tile = is_tile(shapes.shape(source, call.lineno))
            if backend == "ascend":
                # int64 vector add and compare have no vector instruction on A2/A3.
                confidence = 0.6 if tile else 0.45
            else:
                confidence = 0.35 if tile else 0.2
            matches.append(_match(
                module, kernel, call, "int64-index", confidence,
                f"`{kernel.name}` widens {'a tile of' if tile else 'a scalar'} index to int64; "
                "every offset derived from it is then 64-bit arithmetic.",
                ["sizes: largest offset at the large size fits in int32",
                 "TTIR: arith.extsi to i64 feeding tt.addptr on tensors"],
                tile=tile))
    return matches


@detector("div-mod-index")
def div_mod_index(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        seen: dict[tuple[str, str], set[str]] = {}
        first: dict[tuple[str, str], ast.BinOp] = {}
        for node in ast.walk(kernel.node):
            if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv | ast.Mod)):
                continue
            if not is_tile(shapes.shape(node.left, node.lineno)):
                continue
            key = (ast.unparse(node.left), ast.unparse(node.right))
            seen.setdefault(key, set()).add(type(node.op).__name__)
            if key not in first or node.lineno < first[key].lineno:
                first[key] = node
        # a decode done once before the loop that reuses it (every access it reaches is in a
        # loop it is not in) is paid once per program, not at every access
        in_loops = {id(n) for loop in ast.walk(kernel.node) if isinstance(loop, ast.For | ast.While)
                    for n in ast.walk(loop)}
        reached = {key: _reached(kernel, first[key]) for key in seen}
        hoisted = {key for key in seen if _hoisted_decode(first[key], reached[key], in_loops)}
        runtime_keys = {key for key in seen if _runtime_divisor(kernel, first[key].right)} - hoisted
        # many runtime divisions per element (a generic N-d index decode) are issue-bound work of
        # their own: about 20 integer instructions each against a few bytes the element moves
        issue_bound = len(runtime_keys) >= ISSUE_BOUND_DIVISIONS
        lead = min((first[key] for key in runtime_keys), key=lambda n: (n.lineno, n.col_offset), default=None)
        for key, ops in seen.items():
            node = first[key]
            runtime = key in runtime_keys
            confidence = (0.6 if runtime else 0.3) + (0.1 if len(ops) == 2 else 0.0)
            if key in hoisted:
                confidence = min(confidence, HOISTED_DIV_MOD_CONFIDENCE)
            if backend == "ascend":
                if _feeds_only_gathers(kernel, reached[key]):  # a few vector ops beside a scalar transfer each
                    confidence = min(confidence, GATHERED_DIV_MOD_CONFIDENCE)
                else:  # a div/mod the structurer cannot remove scalarizes the access
                    confidence += 0.1
            many = ""
            if issue_bound and node is lead:
                confidence = max(confidence, 0.8)
                many = (f" The kernel divides each element's index by {len(runtime_keys)} runtime values: "
                        f"about {20 * len(runtime_keys)} integer instructions per element, more than its "
                        "memory traffic takes to move.")
            matches.append(_match(
                module, kernel, node, "div-mod-index", min(confidence, 0.8),
                f"`{kernel.name}` decodes a flattened tile index with "
                f"{' and '.join(sorted('//' if o == 'FloorDiv' else '%' for o in ops))} by "
                f"`{key[1]}`{' (a runtime value)' if runtime else ''} on every element.{many}",
                ["SASS/PTX: integer division sequences per element in the hot loop"
                 if backend == "cuda" else
                 "TTIR after triton-to-structured: div/rem still present on the pointer offsets",
                 "profile: kernel is compute- or issue-bound rather than memory-bound"],
                divisor=key[1], runtime_divisor=runtime, runtime_divisions=len(runtime_keys)))
    return matches


def _reached(kernel: JitKernel, node: ast.BinOp) -> list[tuple[ast.Call, set[str]]]:
    """The accesses whose address the div/mod reaches, each with the names its pointer depends on."""
    bound = {t.id for stmt in ast.walk(kernel.node) if isinstance(stmt, ast.Assign)
             and any(n is node for n in ast.walk(stmt.value))
             for t in stmt.targets if isinstance(t, ast.Name)}
    reached = []
    for op in memory_ops(kernel):
        pointer = pointer_of(op)
        names = depends_on(kernel, pointer)
        if names & bound or any(n is node for n in ast.walk(pointer)):
            reached.append((op, names))
    return reached


def _feeds_only_gathers(kernel: JitKernel, reached: list[tuple[ast.Call, set[str]]]) -> bool:
    """Every access whose address the div/mod reaches (`_reached`) is also addressed through a
    loaded value (a deformable or table-driven gather): no index decode makes such an access
    structured, so its scalarization is the gather's, not the division's."""
    loaded = bound_to_call(kernel, "load")
    return bool(reached) and all(names & loaded for _op, names in reached)


HOISTED_DIV_MOD_CONFIDENCE = 0.45  # a decode before the loop that reuses it: once per program


def _hoisted_decode(node: ast.BinOp, reached: list[tuple[ast.Call, set[str]]], in_loops: set[int]) -> bool:
    """The div/mod sits in no loop, and every access it reaches (`_reached`) sits in one (a tap's
    wrapped grid index decoded once, then loaded for every coil): the decode is paid once per
    program and each access inside the loop reuses it. `in_loops`: ids of the nodes in loops."""
    return id(node) not in in_loops and bool(reached) and all(id(op) in in_loops for op, _names in reached)


GATHERED_DIV_MOD_CONFIDENCE = 0.5  # below the gather that scalarizes the access anyway
ISSUE_BOUND_DIVISIONS = 4  # runtime divisors per element past which integer work outlasts the traffic


def _runtime_divisor(kernel: JitKernel, divisor: ast.expr) -> bool:
    """A divisor known only at run time: a non-constexpr parameter, or an expression of them
    (`W * H`) with no constexpr among its names."""
    names = [n.id for n in ast.walk(divisor) if isinstance(n, ast.Name)]
    params = [kernel.param(n) for n in names]
    return bool(params) and all(p is not None for p in params) and not any(p.constexpr for p in params)


def _same_number(a: ast.expr, b: ast.expr) -> bool:
    try:
        return float(ast.literal_eval(a)) == float(ast.literal_eval(b))
    except (ValueError, TypeError, SyntaxError):
        return ast.unparse(a) == ast.unparse(b)


def _same_condition(kernel: JitKernel, a: ast.expr, b: ast.expr) -> bool:
    """The same mask, whether written out again or through the name it was bound to once."""
    def resolved(node: ast.expr) -> str:
        stmts = kernel.assigns.get(node.id, []) if isinstance(node, ast.Name) else []
        value = getattr(stmts[0], "value", None) if len(stmts) == 1 else None
        return ast.unparse(value if value is not None else node)
    return ast.unparse(a) == ast.unparse(b) or resolved(a) == resolved(b)


def _fill_of(value: ast.expr | None) -> tuple[ast.expr, ast.expr, str] | None:
    """(mask, fill, what) of a value that already holds `fill` wherever `mask` is false: a load
    under a mask with other=, or a `tl.where(mask, y, fill)` select."""
    if not isinstance(value, ast.Call):
        return None
    if call_name(value) == "load":
        mask, other = kwarg(value, "mask"), kwarg(value, "other")
        return (mask, other, "load") if mask is not None and other is not None else None
    if call_name(value) == "where" and len(value.args) == 3:
        return value.args[0], value.args[2], "select"
    return None


@detector("where-after-load")
def where_after_masked_load(module: KernelModule, backend: str) -> list[Match]:
    """A `tl.where(mask, x, fill)` whose `x` already holds `fill` wherever `mask` is false: the
    load of `x` applied it with other=, or an earlier select of the same mask and fill did."""
    matches = []
    for kernel in module.kernels.values():
        for where in kernel.calls("where"):
            if len(where.args) != 3 or not isinstance(where.args[1], ast.Name):
                continue
            cond, value, fill = where.args
            reaching = reaching_binding(kernel, value.id, where)
            found = _fill_of(getattr(reaching, "value", None)) if isinstance(reaching, ast.Assign) else None
            if found is None or reaching.value is where:  # type: ignore[union-attr]
                continue
            mask, other, what = found
            if not (_same_condition(kernel, cond, mask) and _same_number(fill, other)):
                continue
            applied = "applied with other=" if what == "load" else "applied"
            matches.append(_match(
                module, kernel, where, "where-after-load", 0.55,
                f"`tl.where` repeats the mask and fill value that the {what} of `{value.id}` "
                f"(line {reaching.lineno}) already {applied}.",
                ["TTIR after canonicalize: arith.select with the load's mask survives"],
                load_line=reaching.lineno))
    return matches


def _is_range_loop(loop: ast.For) -> bool:
    return isinstance(loop.iter, ast.Call) and call_name(loop.iter) in {
        "range", "static_range"}


def _counted_loops(kernel: JitKernel) -> list[tuple[ast.For | ast.While, str, ast.expr]]:
    """(loop, counter, bound) of each loop that steps a counter: `for i in range(...)`, or a
    `while` whose test reads a name the body increments (`while j < n: ...; j += 1`)."""
    found: list[tuple[ast.For | ast.While, str, ast.expr]] = []
    for loop in ast.walk(kernel.node):
        if isinstance(loop, ast.For) and _is_range_loop(loop) and isinstance(loop.target, ast.Name):
            found.append((loop, loop.target.id, loop.iter))
        elif isinstance(loop, ast.While):
            tested = names_in(loop.test)
            stepped = [s.target.id for s in loop.body if isinstance(s, ast.AugAssign)
                       and isinstance(s.op, ast.Add) and isinstance(s.target, ast.Name)
                       and s.target.id in tested]
            if stepped:
                found.append((loop, stepped[0], loop.test))
    return found


def _loop_text(loop: ast.For | ast.While, bound: ast.expr) -> str:
    return ast.unparse(bound) if isinstance(loop, ast.For) else f"while {ast.unparse(bound)}"


def _element_step_loop(kernel: JitKernel, shapes: ShapeInference, loop: ast.For | ast.While,
                       counter: str, ops: list[ast.Call], ptr_shapes: list) -> bool:
    """A loop over single elements that also touches tiles: per step a scalar load indexed by
    the loop variable (a table lookup) and a tile reduced to one value (`tl.sum(..., axis=0)`
    of a 1-D tile)."""
    scalar_lookup = any(shape == () and counter in depends_on(kernel, pointer_of(c))  # type: ignore[arg-type]
                        for c, shape in zip(ops, ptr_shapes, strict=True) if call_name(c) == "load")
    reduced = any(isinstance(n, ast.Call) and call_name(n) in ("sum", "max")
                  and shapes.shape(n, n.lineno) == () for stmt in loop.body for n in ast.walk(stmt))
    return scalar_lookup and reduced


def _assigned_names(stmt: ast.stmt) -> list[str]:
    """The names an assignment binds: `a = ...`, `a, b = ...`, `a += ...`."""
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        elts = target.elts if isinstance(target, ast.Tuple) else [target]
        return [e.id for e in elts if isinstance(e, ast.Name)]
    return []


def _without_loads(expr: ast.expr) -> ast.expr:
    """A copy of `expr` with every tl.load call replaced by a constant (its address is no use of a value)."""
    class _Drop(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            return ast.Constant(0.0) if call_name(node) == "load" else self.generic_visit(node)

    return _Drop().visit(copy.deepcopy(expr))


def prefix_consumed(kernel: JitKernel, loop: ast.For | ast.While,
                    shapes: ShapeInference) -> tuple[str, ast.AugAssign] | None:
    """A loop of one-element steps whose running state (a value the loop updates from itself,
    set before the loop) feeds, at every step, a sum of another name (`total += log(s) + m`):
    every prefix state is used, not only the last, so the loop is a scan, not a reduction a
    tile and one tl.sum replace. (carried name, the statement that consumes it) or None."""
    calls = [n for n in ast.walk(loop) if isinstance(n, ast.Call)]
    if not any(call_name(c) == "load" for c in calls) or any(
            call_name(c) in ("dot", "associative_scan", "cumsum") for c in calls):
        return None
    if any(is_tile(shapes.shape(pointer_of(c), c.lineno)) for c in calls
           if call_name(c) == "load" and pointer_of(c) is not None):
        return None  # tile steps: a chunked loop, its own idioms
    inside = {id(n) for n in ast.walk(loop)}
    body = [n for n in ast.walk(loop) if isinstance(n, ast.Assign | ast.AugAssign)]
    carried, counters = set(), set()
    for stmt in body:
        value = stmt.value
        for name in _assigned_names(stmt):
            before = any(id(a) not in inside for a in kernel.assigns.get(name, []))
            if before and (isinstance(stmt, ast.AugAssign) or name in names_in(value)):
                carried.add(name)
            if isinstance(stmt, ast.AugAssign) and isinstance(stmt.value, ast.Constant):
                counters.add(name)  # a position stepped by a constant (`j += 1`)
    state = carried - counters
    for stmt in body:
        if not (isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add | ast.Sub)
                and isinstance(stmt.target, ast.Name)):
            continue
        # the value the step adds, outside the addresses it loads from
        value = _without_loads(stmt.value)
        names = names_in(value)
        # one step back through values the loop computes (`t = log(s); total += t`), not through loads
        names |= {n for stmt2 in body for name in _assigned_names(stmt2) if name in names
                  and not isinstance(stmt2, ast.AugAssign) for n in names_in(_without_loads(stmt2.value))}
        used = names & (state - {stmt.target.id})
        # a state held per lane (a tile) is a recurrence each lane runs over one item per step:
        # the lanes are already parallel, and the walk is no one-element scan
        used = {n for n in used if not is_tile(shapes.shape(name_node(n), stmt.lineno))}
        # a state whose own update reads the sum (`ux` from the field gathered at `x`, then
        # `x += h * ux`: an ODE integrated step by step) is one coupled recurrence, no prefix
        # sum a scan could take apart
        used = {n for n in used if not _reads_the_sum(kernel, body, n, stmt.target.id)}
        if used and stmt.target.id in carried:
            return sorted(used)[0], stmt
    return None


def _reads_the_sum(kernel: JitKernel, body: list[ast.stmt], state: str, total: str) -> bool:
    """Some update of `state` in the loop reads `total`, directly or through names (addresses
    included: a gather at the position the sum holds)."""
    return any(total in names_in(stmt.value) | depends_on(kernel, stmt.value)  # type: ignore[attr-defined]
               for stmt in body if state in _assigned_names(stmt))


def _walks_a_table(loop: ast.For | ast.While, shapes: ShapeInference) -> bool:
    """The loop's scalar loads are table entries ordered against a tile of elements
    (`x1 = tl.load(xs + k)`; `(v >= x0) & (v < x1)` with `v` a tile): one entry per step against
    all elements, not one element per step."""
    entries = {t.id for stmt in ast.walk(loop) if isinstance(stmt, ast.Assign)
               and isinstance(value := uncast(stmt.value), ast.Call) and call_name(value) == "load"
               and shapes.shape(value, stmt.lineno) == () for t in stmt.targets if isinstance(t, ast.Name)}
    for cmp in (n for n in ast.walk(loop) if isinstance(n, ast.Compare) and len(n.ops) == 1):
        if not isinstance(cmp.ops[0], ast.Lt | ast.LtE | ast.Gt | ast.GtE):
            continue
        sides = [cmp.left, cmp.comparators[0]]
        for mine, other in ((sides[0], sides[1]), (sides[1], sides[0])):
            if (isinstance(mine, ast.Name) and mine.id in entries
                    and is_tile(shapes.shape(other, cmp.lineno)) and not names_in(other) & entries):
                return True
    return False


ROW_STEP_CONFIDENCE = 0.45  # an element walk whose steps each also move a row the loop places


def _row_steps(kernel: JitKernel, loop: ast.For | ast.While, counter: str, ops: list[ast.Call],
               ptr_shapes: list) -> bool:
    """Each step of an element walk also loads a tile the loop variable places and no value the
    step loads does (`s = tl.load(x + i * L + cols)` beside `sg = tl.load(sigma + i)`): the
    step moves a row, the scalar is that row's parameter, and the walk is one of rows, which
    more rows a step shorten. A row placed through a loaded index (a block table) is a walk of
    dependent lookups."""
    loaded = {name for stmt in ast.walk(loop) if isinstance(stmt, ast.Assign)
              and any(isinstance(n, ast.Call) and call_name(n) == "load" for n in ast.walk(stmt.value))
              for name in _assigned_names(stmt)}
    for c, shape in zip(ops, ptr_shapes, strict=True):
        deps = depends_on(kernel, pointer_of(c)) if call_name(c) == "load" and is_tile(shape) else set()  # type: ignore[arg-type]
        if counter in deps and not deps & loaded:
            return True
    return False


@detector("scalar-loop")
def scalar_element_loop(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        for loop, counter, bound_node in _counted_loops(kernel):
            ops = [c for stmt in loop.body for c in ast.walk(stmt)
                   if isinstance(c, ast.Call) and call_name(c) in MEMORY_OPS
                   and pointer_of(c) is not None]
            if not ops or prefix_consumed(kernel, loop, shapes) is not None \
                    or stored_scan_state(kernel, loop) is not None:
                continue  # a walk whose every prefix state is used: a scan (serial-recurrence)
            ptr_shapes = [shapes.shape(pointer_of(c), c.lineno) for c in ops]
            if any(s is None or is_tile(s) for s in ptr_shapes):
                if _element_step_loop(kernel, shapes, loop, counter, ops, ptr_shapes):
                    rows = _row_steps(kernel, loop, counter, ops, ptr_shapes)
                    matches.append(_match(
                        module, kernel, loop, "scalar-loop", ROW_STEP_CONFIDENCE if rows else 0.65,
                        f"`{kernel.name}` walks elements one at a time in "
                        f"`{_loop_text(loop, bound_node)}`: each step loads a scalar indexed by the "
                        "loop and reduces its tile to a single value, a chain of dependent, "
                        "latency-bound steps instead of one tile of elements per step.",
                        ["TTIR: scalar tt.load and a reduction to a scalar inside scf.for",
                         "profile: time grows with the trip count at low bandwidth"],
                        loop_bound=_loop_text(loop, bound_node), **({"row_step": True} if rows else {})))
                continue
            if not any(counter in depends_on(kernel, pointer_of(c)) for c in ops):  # type: ignore[arg-type]
                continue
            if _walks_a_table(loop, shapes):
                continue  # the elements are a tile; the loop walks a table against them (linear-table-scan)
            bound = _loop_text(loop, bound_node)
            # a trip count from the tile size or from a size argument: the loop walks the
            # elements of a slice one by one
            element_wise = "BLOCK" in bound.upper() or any(
                p.name in names_in(bound_node) for p in kernel.params)
            loads = any(call_name(c) == "load" for c in ops)
            tile_work = any(is_tile(shapes.shape(n.value, n.lineno)) for stmt in loop.body
                            for n in ast.walk(stmt) if isinstance(n, ast.Assign))
            # A loop that only stores one result per iteration (top-k, scans) or does tile
            # work per iteration is not an element-by-element walk.
            confidence = (0.75 if element_wise else 0.6) if loads and not tile_work else 0.3
            matches.append(_match(
                module, kernel, loop, "scalar-loop", confidence,
                f"`{kernel.name}` walks elements one at a time in `{bound}` with scalar "
                "loads/stores instead of one tile-wide access.",
                ["TTIR: tt.load of a scalar pointer inside scf.for",
                 "profile: time grows with the loop trip count at low bandwidth"],
                loop_bound=bound))
    return matches


@detector("indirect-access", ("ascend",))
def indirect_access(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for kernel in module.kernels.values():
        shapes = ShapeInference(kernel)
        loaded = {name for name, stmts in kernel.assigns.items()
                  if any(isinstance(v := _uncast(getattr(s, "value", None)), ast.Call)
                         and call_name(v) in ("load", "where") for s in stmts)}
        loaded |= selected_by_value(kernel)
        for op in memory_ops(kernel):
            # an index read from memory (`.to(tl.int32)` of one too), or chosen per element by tl.where (a partner index):
            # either way the offset analysis cannot prove the access structured
            deps = depends_on(kernel, pointer_of(op)) & loaded  # type: ignore[arg-type]
            tiles = sorted(d for d in deps
                           if is_tile(shapes.shape(ast.Name(d, ast.Load(), lineno=op.lineno),
                                                   op.lineno)))
            if not tiles:
                continue
            masked = kwarg(op, "mask") is not None
            matches.append(_match(
                module, kernel, op, "indirect-access", 0.7 if masked else 0.6,
                f"`{call_name(op)}` in `{kernel.name}` addresses memory through the index "
                f"tile {', '.join(tiles)} (loaded, or selected per element): a discrete gather "
                "the NPU runs element by element.",
                ["TTIR after discrete-mask-access-conversion / triton-to-unstructure: scf.for "
                 "of scalar loads", "msprof: aiv_scalar_ratio high, aiv_mte2_ratio low"],
                index_tiles=tiles, masked=masked))
    return matches


def _uncast(node: ast.AST | None) -> ast.AST | None:
    """The value under a chain of dtype casts (`tl.load(p).to(tl.int32)` -> the load)."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to":
        node = node.func.value
    return node


def _loops_around(kernel: JitKernel, node: ast.AST) -> list[ast.For | ast.While]:
    """The loops of the kernel that contain `node`, outermost first."""
    return [loop for loop in ast.walk(kernel.node) if isinstance(loop, ast.For | ast.While)
            and loop is not node and any(n is node for n in ast.walk(loop))]


@detector("global-accumulator", ("cuda", "ascend"))
def global_accumulator(module: KernelModule, backend: str) -> list[Match]:
    """A running sum kept in global memory: inside a loop, a tile is loaded from an address,
    updated and stored back to the same address, and an enclosing loop does not move that
    address, so every iteration of that loop pays a read and a write of the tile through the
    memory system for what a register accumulator (the loops interchanged) holds for free."""
    matches = []
    for kernel in module.kernels.values():
        ops = memory_ops(kernel)
        loads = {ast.unparse(pointer_of(op)): op for op in ops if call_name(op) == "load"}
        for store in (op for op in ops if call_name(op) == "store" and len(op.args) > 1):
            address = ast.unparse(pointer_of(store))
            load = loads.get(address)
            if load is None or load.lineno > store.lineno:
                continue
            if not _updates_what_it_read(kernel, load, store):
                continue  # stores something other than an update of what it loaded
            moves = depends_on(kernel, pointer_of(store)) | names_in(pointer_of(store))
            still = [loop for loop in _loops_around(kernel, store) if isinstance(loop, ast.For)
                     and not names_in(loop.target) & moves]
            if not still:
                continue
            loop = still[0]
            matches.append(_match(
                module, kernel, store, "global-accumulator", 0.7,
                f"`{kernel.name}` keeps a running sum in global memory: it loads "
                f"`{address[:50]}`, adds to it and stores it back (line {store.lineno}) on every "
                f"iteration of the loop over `{ast.unparse(loop.target)}` (line {loop.lineno}), "
                "which does not move that address: a read and a write of the tile per iteration "
                "where a register accumulator, with the loops interchanged, touches memory once.",
                ["profile: bytes moved well above the task's useful bytes",
                 "ncu: L2/DRAM traffic dominated by the accumulator's address"],
                loop_line=loop.lineno))
            break
    return matches


def _updates_what_it_read(kernel: JitKernel, load: ast.Call, store: ast.Call) -> bool:
    """Whether the value `store` writes is computed from what `load` read on the same pass:
    through names bound from the load, and names bound from those at or after the load's line
    and before the store. A value computed before the load (a DP row's new cell, written where
    the old one was just read for the next step) replaces what was read, it does not update it."""
    if any(n is load for n in ast.walk(store.args[1])):
        return True
    fresh = {name for name, stmts in kernel.assigns.items()
             if any(any(n is load for n in ast.walk(s)) for s in stmts)}
    grew = True
    while grew:
        grew = False
        for name, stmts in kernel.assigns.items():
            if name not in fresh and any(
                    load.lineno <= s.lineno <= store.lineno and names_in(s.value) & fresh
                    for s in stmts if getattr(s, "value", None) is not None):
                fresh.add(name)
                grew = True
    return bool(names_in(store.args[1]) & fresh)


def _program_axes(kernel: JitKernel, node: ast.AST) -> set[int]:
    """The grid axes (tl.program_id(a)) an expression depends on, through local assignments."""
    values = [node] + [getattr(s, "value", None) for name in depends_on(kernel, node)
                       for s in kernel.assigns.get(name, [])]
    axes = set()
    for value in values:
        for n in ast.walk(value) if value is not None else ():
            if isinstance(n, ast.Call) and call_name(n) == "program_id":
                axis = n.args[0] if n.args else kwarg(n, "axis")
                axes.add(axis.value if isinstance(axis, ast.Constant) and isinstance(axis.value, int) else 0)
    return axes


@detector("redundant-across-programs", ("cuda", "ascend"))
def redundant_across_programs(module: KernelModule, backend: str) -> list[Match]:
    """A loop that streams a whole slice (its loads follow one grid axis) in a kernel launched over
    another axis too, none of whose loads that loop's follow: every program along the other axis
    repeats the same loop over the same bytes (a plane's statistics recomputed by each of its tile
    programs). Computing it once per slice removes all but one of those passes."""
    matches = []
    for kernel in module.kernels.values():
        used = _program_axes(kernel, kernel.node)
        if len(used) < 2:
            matches += _redundant_across_tasks(module, kernel)
            continue
        for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For)):
            loads = [c for c in ast.walk(loop) if isinstance(c, ast.Call) and call_name(c) == "load"
                     and pointer_of(c) is not None]
            if not loads:
                continue
            followed = set().union(*(_program_axes(kernel, pointer_of(c)) for c in loads))
            # everything the loop computes follows those axes only (an attention loop's q tile
            # follows the query-block axis: each program's loop is its own work)
            repeated = sorted(used - _program_axes(kernel, loop))
            if not followed or not repeated:
                continue
            matches.append(_match(
                module, kernel, loop, "redundant-across-programs", 0.7,
                f"`{kernel.name}` loops over `{ast.unparse(loop.iter)[:60]}` (line {loop.lineno}) "
                f"loading addresses that follow grid axis {sorted(followed)[0]} only, while the kernel "
                f"is also launched over axis {repeated[0]}: every program along that axis repeats "
                "the same loop over the same bytes. Compute it once per slice (a small first pass "
                "whose results the tile programs read, or one program per slice looping over its "
                "tiles).",
                ["profile: bytes read well above the task's useful bytes",
                 "IR: the loop's loads in every program of the repeated axis"],
                loop_line=loop.lineno, repeated_axis=repeated[0]))
            break
    return matches


def _redundant_across_tasks(module: KernelModule, kernel: JitKernel) -> list[Match]:
    """The same with a grid-stride loop over tasks (`for item in range(pid, n, num_programs)`)
    whose coordinates are decoded from the task index with // and %: an inner loop that streams
    a slice following some coordinates and none of another (a time block's index) repeats the
    same pass in every task along that coordinate."""
    for task in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For)
                 and isinstance(n.iter, ast.Call) and call_name(n.iter) == "range"
                 and isinstance(n.target, ast.Name) and n.iter.args
                 and _program_axes(kernel, n.iter.args[0])):
        item = task.target.id
        # a coordinate is decoded with // or %, or is the remainder spelled out (`item - b * n`)
        coords = {name for name, stmts in kernel.assigns.items() for st in stmts
                  if getattr(st, "value", None) is not None
                  and any(isinstance(b, ast.BinOp) and (isinstance(b.op, ast.FloorDiv | ast.Mod) or (
                          isinstance(b.op, ast.Sub) and isinstance(b.left, ast.Name) and b.left.id == item
                          and isinstance(b.right, ast.BinOp) and isinstance(b.right.op, ast.Mult)))
                          for b in ast.walk(st.value))
                  and item in depends_on(kernel, st.value) | names_in(st.value)}
        inner_loops = [n for n in ast.walk(task) if isinstance(n, ast.For) and n is not task]
        for loop in inner_loops:
            loads = [c for c in ast.walk(loop) if isinstance(c, ast.Call) and call_name(c) == "load"
                     and pointer_of(c) is not None]
            deps = _loop_depends_on(kernel, loop)
            followed = coords & deps
            inside = {id(n) for n in ast.walk(loop)}
            outside = set().union(*(names_in(op) | depends_on(kernel, op) for op in memory_ops(kernel)
                                    if id(op) not in inside))
            repeated = sorted((coords - deps) & outside)
            if not loads or not followed or not repeated:
                continue
            return [_match(
                module, kernel, loop, "redundant-across-programs", 0.7,
                f"`{kernel.name}` loops over `{ast.unparse(loop.iter)[:60]}` (line {loop.lineno}) in "
                f"each task of its loop over `{item}`, loading addresses that follow the task's "
                f"{', '.join(sorted(followed))} but not its `{repeated[0]}`: every task along "
                f"`{repeated[0]}` repeats the same pass over the same bytes. Compute it once per slice "
                "(a small first pass whose results the tasks read, or one task per slice looping "
                "over its blocks).",
                ["profile: bytes read well above the task's useful bytes",
                 "IR: the loop's loads in every task of the repeated coordinate"],
                loop_line=loop.lineno, repeated_axis=repeated[0])]
    return []


def _loop_depends_on(kernel: JitKernel, loop: ast.For) -> set[str]:
    """The names a loop's work depends on: a name the loop assigns is followed through its
    assignments inside the loop only (a name reused after the loop for another value is not
    the loop's), any other through all of its assignments."""
    local = {}
    for st in ast.walk(loop):
        if isinstance(st, ast.Assign | ast.AugAssign):
            for name in _assigned_names(st):
                local.setdefault(name, []).append(st.value)
    seen, todo = set(), list(names_in(loop))
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in local:
            todo += [n for value in local[name] for n in names_in(value)]
        else:
            seen |= depends_on(kernel, name_node(name))
    return seen
