"""Ascend NPU detectors: grids larger than the AI-core count, tiles that overflow the unified
buffer (UB), tail axes that are not 32-byte aligned, integer compares in tl.where, and
single-pass kernels that leave no room for multi-buffering."""

from __future__ import annotations

import ast
import math

from diagnose.triage.detectors import Match, detector
from diagnose.triage.detectors.compute import _program_dependent
from diagnose.triage.detectors.launch import VECTOR_CORES, _launch_match
from diagnose.triage.detectors.memory import _is_range_loop, _match, memory_ops, pointer_of
from diagnose.triage.detectors.model import (
    JitKernel,
    KernelModule,
    ShapeInference,
    bindings_before,
    call_name,
    constexpr_values,
    evaluate,
    grid_elements,
    is_tile,
    kwarg,
    launcher_env,
    names_in,
)

# Atlas A2: 192 KB of UB per AI core; multi-buffering (on by default) halves what one tile
# may use (triton-ascend docs/en/programming_guide.md, "Tiling Optimization").
UB_BYTES = 192 * 1024
UB_BYTES_DOUBLE_BUFFERED = UB_BYTES // 2
ALIGN_BYTES = 32
FP32_BYTES = 4
_CORE_WORDS = ("core", "num_vectorcore", "num_aicore", "get_device_properties")


# Nearly every GPU-style launch has a grid that grows with the input, so that match alone is
# generic: it ranks above the generic autotune/no-loop hints but below any specific idiom
# (UB overflow, gather, unaligned tail), which names a cost the grid does not explain.
GENERIC_GRID_CONFIDENCE = 0.5


def _grid_confidence(programs: int) -> float:
    """Rises with how many scheduling rounds the grid costs: 0.55 at 2 rounds, 0.85 at >= 64."""
    rounds = programs / VECTOR_CORES
    if rounds <= 2:
        return 0.55
    return round(min(0.85, 0.55 + 0.06 * math.log2(rounds / 2)), 2)


def _strides_over_programs(kernel: JitKernel) -> bool:
    """True for the persistent form `for i in range(pid, n, tl.num_programs(0))`, and for a loop
    that starts at the program id and steps by anything but 1 (`range(pid, n, NUM_CORES)`)."""
    if kernel.calls("num_programs"):
        return True
    for loop in ast.walk(kernel.node):
        if isinstance(loop, ast.For) and _is_range_loop(loop) and len(loop.iter.args) == 3:
            start, step = loop.iter.args[0], loop.iter.args[2]
            if _program_dependent(kernel, start) and not (isinstance(step, ast.Constant) and step.value == 1):
                return True
    return False


def _capped(element: ast.expr, env: dict) -> bool:
    """A grid axis written `min(CORES, n)`: one of min's arguments is a count within the cores."""
    return isinstance(element, ast.Call) and call_name(element) == "min" and any(
        isinstance(v := evaluate(a, env), int) and v <= VECTOR_CORES for a in element.args)


@detector("grid-cores", ("ascend",))
def grid_exceeds_cores(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for launch in module.launches:
        elements = grid_elements(launch)
        text = " ".join(ast.unparse(e) for e in elements)
        if any(word in text for word in _CORE_WORDS):
            continue
        env = launcher_env(module, launch)
        if len(elements) == 1 and _capped(elements[0], env):
            continue
        values = [evaluate(e, env) for e in elements]  # type: ignore[arg-type]
        if all(isinstance(v, int) for v in values):
            total = 1
            for v in values:
                total *= v  # type: ignore[operator]
            if total <= VECTOR_CORES:
                continue
            confidence = _grid_confidence(total)
            size = f"{total} programs"
        else:
            if _strides_over_programs(module.kernels[launch.kernel]):
                continue
            confidence = GENERIC_GRID_CONFIDENCE
            size = f"grid ({text}) that grows with the input"
        matches.append(_launch_match(
            module, launch, "grid-cores", confidence,
            f"`{launch.kernel}` is launched with a {size}; the NPU runs at most one program per "
            f"physical core at a time (about {VECTOR_CORES} vector cores), so the rest run in "
            "extra scheduling rounds.",
            ["sizes: programs launched at the large size versus num_vectorcore / num_aicore",
             "msprof op_summary: Block Dim above the core count"], grid=text))
    return matches


def _resolve(dim: object, values: dict[str, list[int | str]]) -> int | None:
    if isinstance(dim, int):
        return dim
    ints = [v for v in values.get(str(dim), []) if isinstance(v, int)]
    return max(ints) if ints else None


def _elements(shape: tuple, values: dict[str, list[int | str]]) -> int | None:
    total = 1
    for dim in shape:
        size = _resolve(dim, values)
        if size is None:
            return None
        total *= size
    return total


def _resident_tiles(kernel: JitKernel) -> list[ast.Call]:
    return [c for c in kernel.calls("load", "zeros", "full", "dot")]


@detector("ub-tile", ("ascend",))
def ub_overflow(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for kernel in module.kernels.values():
        values = constexpr_values(module, kernel)
        shapes = ShapeInference(kernel)
        total, largest, whole = 0, None, None
        for call in _resident_tiles(kernel):
            shape = shapes.shape(call, call.lineno)
            if not is_tile(shape):
                continue
            count = _elements(shape, values)  # type: ignore[arg-type]
            if count is None:
                whole = whole or _whole_dimension_tile(shape, values, call)  # type: ignore[arg-type]
                continue
            total += count * FP32_BYTES  # tiles are usually computed in fp32 on the vector unit
            if largest is None or count > largest[1]:
                largest = (call, count)
        if (total <= UB_BYTES_DOUBLE_BUFFERED or largest is None) and whole is not None:
            if not _loops(kernel):
                matches.append(_whole_row_match(module, kernel, *whole))
            continue
        if total <= UB_BYTES_DOUBLE_BUFFERED or largest is None:
            continue  # with captured sizes: the tile fits, the whole-row worry is ruled out
        confidence = 0.75 if total > UB_BYTES else 0.5
        if _whole_row_static(module, kernel, shapes) and not _loops(kernel):
            confidence = max(confidence, 0.6)  # a runtime-sized row, seen at its real size
        matches.append(_match(
            module, kernel, largest[0], "ub-tile", confidence,
            f"`{kernel.name}` keeps about {total // 1024} KB of tiles live (fp32 estimate) "
            f"against {UB_BYTES // 1024} KB of UB, {UB_BYTES_DOUBLE_BUFFERED // 1024} KB with "
            "double buffering: the tile needs an inner loop over sub-blocks.",
            ["compile: 'ub overflow, requires N bits' from the Ascend compiler, or multibuffer "
             "silently disabled", "msprof: aiv_mte2_ratio and aiv_vec_ratio both low"],
            estimated_bytes=total))
    return matches


def _whole_row_static(module: KernelModule, kernel: JitKernel, shapes: ShapeInference) -> bool:
    """Whether the host code sizes a tile axis as next_power_of_2 of a runtime size."""
    static = constexpr_values(module, kernel, resolved=False)
    return any(_whole_dimension_tile(shapes.shape(c, c.lineno) or (), static, c)  # type: ignore[arg-type]
               for c in _resident_tiles(kernel))


def _whole_dimension_tile(shape: tuple, values: dict[str, list[int | str]], call: ast.Call
                          ) -> tuple[ast.Call, str] | None:
    """(call, axis) when a tile axis is a constexpr launched as next_power_of_2(<runtime size>)."""
    for dim in shape:
        if isinstance(dim, str) and values.get(dim) and all(v == "pow2" for v in values[dim]):
            return call, dim
    return None


def _loops(kernel: JitKernel) -> bool:
    return any(isinstance(n, ast.For | ast.While) for n in ast.walk(kernel.node))


def _whole_row_match(module: KernelModule, kernel: JitKernel, call: ast.Call, axis: str) -> Match:
    # The tile grows with the input with no loop to cap it: UB-sized only while the
    # dimension is small, and the A2's 192 KB UB holds 48K fp32 values at most.
    return _match(
        module, kernel, call, "ub-tile", 0.6,
        f"`{kernel.name}` holds a whole runtime-sized axis in one tile ({axis} = "
        f"next_power_of_2 of a launch size) with no loop over it: at large sizes the tile "
        f"and its fp32 temporaries outgrow the {UB_BYTES // 1024} KB UB.",
        ["sizes: the launched block at the large size times the tiles kept live",
         "compile: 'ub overflow' from the Ascend compiler, or multibuffer silently disabled"],
        axis=axis)


@detector("unaligned-last-dim", ("ascend",))
def unaligned_last_dim(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for kernel in module.kernels.values():
        values = constexpr_values(module, kernel)
        shapes = ShapeInference(kernel)
        for op in memory_ops(kernel):
            shape = shapes.shape(pointer_of(op), op.lineno)
            if not is_tile(shape):
                continue
            last = _resolve(shape[-1], values)  # type: ignore[index]
            if last is None or (last * FP32_BYTES) % ALIGN_BYTES == 0:
                continue
            confidence = 0.6 if len(shape) >= 2 else 0.4  # type: ignore[arg-type]
            matches.append(_match(
                module, kernel, op, "unaligned-last-dim", confidence,
                f"`{call_name(op)}` in `{kernel.name}` moves a tile whose last axis is {last} "
                f"element(s), {last * FP32_BYTES} bytes at fp32: the UB pads each row to "
                f"{ALIGN_BYTES} bytes.",
                ["IR: padded buffer shapes after hivm-align-alloc-size / hivm-mark-stride-align",
                 "msprof: MTE2 time high for the bytes moved"],
                shape=[str(d) for d in shape], last_axis=last))  # type: ignore[union-attr]
    return matches


def _index_names(kernel: JitKernel) -> set[str]:
    """Names bound to integer index tiles: tl.arange arithmetic, and names computed from those
    (`gi = i0 + ii`), never from a load or a float."""
    def value(s: ast.stmt) -> str:
        return ast.unparse(getattr(s, "value", ast.Constant(0)))
    indices = {name for name, stmts in kernel.assigns.items()
               if any("arange" in value(s) and "float" not in value(s) for s in stmts)}
    grown = True
    while grown:
        grown = False
        for name, stmts in kernel.assigns.items():
            if name not in indices and stmts and all(
                    names_in(getattr(s, "value", ast.Constant(0))) & indices
                    and "load" not in value(s) and "float" not in value(s) for s in stmts):
                indices.add(name)
                grown = True
    return indices


def _is_index(node: ast.expr, indices: set[str]) -> bool:
    """An integer index tile: a name bound to tl.arange arithmetic, or such an expression
    (`gi[:, None]`, `offs + 1`)."""
    text = ast.unparse(node)
    if "load" in text or "float" in text:
        return False
    return "arange" in text or bool(names_in(node) & indices)


def _conjuncts(kernel: JitKernel, cond: ast.expr | None, line: ast.AST | int) -> list[ast.expr]:
    """The parts of a mask joined by `&` or `|`, a name bound once before `line` read as its
    value (`keep = near & live[None, :] & (gi != gj)`; `live = gj < hi`)."""
    if isinstance(cond, ast.Subscript):  # `live[None, :]`: the mask, broadcast
        cond = cond.value
    if isinstance(cond, ast.Name):
        stmts = bindings_before(kernel, cond.id, line)
        if len(stmts) == 1 and getattr(stmts[0], "value", None) is not None:
            return _conjuncts(kernel, stmts[0].value, line)
        return [cond]
    if isinstance(cond, ast.BinOp) and isinstance(cond.op, ast.BitAnd | ast.BitOr):
        return _conjuncts(kernel, cond.left, line) + _conjuncts(kernel, cond.right, line)
    return [cond] if cond is not None else []


_INT_CAST = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _integer_valued(kernel: JitKernel, node: ast.expr, line: ast.AST, depth: int = 0) -> bool:
    """An integer tile that is not an index: a value cast to an integer dtype (`.to(tl.int32)`),
    a bit-field test (`qa & 0b11111`, `x >> 3`), or a name bound once to one of these."""
    if depth > 4:
        return False
    if isinstance(node, ast.Name):
        stmts = bindings_before(kernel, node.id, line)
        value = getattr(stmts[0], "value", None) if len(stmts) == 1 else None
        return value is not None and _integer_valued(kernel, value, line, depth + 1)
    if isinstance(node, ast.Subscript):  # `d[None, :]`: the same values, broadcast
        return _integer_valued(kernel, node.value, line, depth + 1)
    if isinstance(node, ast.Call) and call_name(node) == "to" and node.args:
        return ast.unparse(node.args[0]).rsplit(".", 1)[-1] in _INT_CAST
    if isinstance(node, ast.Call) and call_name(node) == "load":
        # a load whose masked-off lanes are an integer (other=0 against other=0.0 beside it)
        other = kwarg(node, "other")
        return isinstance(other, ast.Constant) and type(other.value) is int
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.LShift | ast.RShift | ast.BitXor):
            return True
        if isinstance(node.op, ast.BitAnd | ast.BitOr):  # a mask of bits, not of booleans
            sides = (node.left, node.right)
            return any(isinstance(x, ast.Constant) and type(x.value) is int for x in sides) or any(
                _integer_valued(kernel, x, line, depth + 1) for x in sides)
    return False


def _float_compare(compare: ast.Compare) -> bool:
    """A compare against a float literal (`mu > 0.01`, `x >= 0.0`): whatever the other side was
    computed from (index arithmetic scaled into a float, `psf(p) * n + bg`), the compare is a
    float one, which the vector unit runs."""
    return any(isinstance(op, ast.Constant) and type(op.value) is float
               or isinstance(op, ast.UnaryOp) and isinstance(op.operand, ast.Constant)
               and type(op.operand.value) is float
               for op in [compare.left, *compare.comparators])


@detector("where-int-compare", ("ascend",))
def where_int_compare(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    for kernel in module.kernels.values():
        indices = _index_names(kernel)
        shapes = ShapeInference(kernel)
        for where in kernel.calls("where", "to"):
            # a select on the mask, or the mask turned into numbers (`ahead.to(tl.float32)` to
            # count the lanes that hold): either way the compare is data, not a transfer's bounds
            cond = (where.func.value if call_name(where) == "to" and isinstance(where.func, ast.Attribute)
                    else where.args[0] if call_name(where) == "where" and where.args else None)
            compares = [c for c in _conjuncts(kernel, cond, where)
                        if isinstance(c, ast.Compare) and "float" not in ast.unparse(c)
                        and not _float_compare(c) and is_tile(shapes.shape(c, where.lineno))
                        and any(_is_index(op, indices) or _integer_valued(kernel, op, where)
                                for op in [c.left, *c.comparators])]
            if not compares:
                continue
            cond = compares[0]
            use = (f"`tl.where` in `{kernel.name}` selects on" if call_name(where) == "where"
                   else f"`{kernel.name}` turns into numbers a mask of")
            matches.append(_match(
                module, kernel, where, "where-int-compare", 0.55,
                f"{use} `{ast.unparse(cond)}`, a compare of an integer "
                + ("index tile" if any(_is_index(op, indices) for op in [cond.left, *cond.comparators])
                   else "tile (an integer value, not an index)")
                + "; the A2/A3 vector unit has no int32/int64 compare, so it runs on the scalar unit.",
                ["msprof: aiv_scalar_ratio high at this kernel",
                 "code hotspot: scalar instructions mapped to this line"],
                condition=ast.unparse(cond)))
    return matches


@detector("no-tiling-loop", ("ascend",))
def no_tiling_loop(module: KernelModule, backend: str) -> list[Match]:
    matches = []
    launched = {launch.kernel for launch in module.launches}
    for name in sorted(launched):
        kernel = module.kernels[name]
        if any(isinstance(n, ast.For | ast.While) for n in ast.walk(kernel.node)):
            continue
        if not memory_ops(kernel):
            continue
        matches.append(_match(
            module, kernel, kernel.node, "no-tiling-loop", 0.4,
            f"`{kernel.name}` loads, computes and stores in a single pass with no loop, so "
            "data-in, compute and data-out cannot overlap (no multi-buffering).",
            ["msprof pipeline: MTE2, vector and MTE3 run back to back, not overlapped"]))
    return matches
