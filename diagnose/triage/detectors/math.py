"""Detectors of costly arithmetic: functions whose exact evaluation takes more issue slots per
element than a memory-bound kernel can afford (libdevice's exact erf), and a rank in a table found
by comparing with every entry where a sorted table allows a binary search."""

from __future__ import annotations

import ast

from diagnose.triage.detectors import Match, detector
from diagnose.triage.detectors.compute import _pointer_params
from diagnose.triage.detectors.memory import _match, depends_on
from diagnose.triage.detectors.model import (
    JitKernel,
    KernelModule,
    ShapeInference,
    bound_once,
    call_name,
    dotted,
    is_tile,
    names_in,
)

# Issue budget at the copy ceiling, for the message: an H200 issues ~33.5 T thread-instructions/s
# (132 SMs x 128 lanes x ~1.98 GHz) and moves ~1.07 T two-byte elements/s in and out at 4.27 TB/s.
BUDGET_PER_ELEMENT = 31


# Accurate libdevice functions and their rough fp32 cost in instructions per element (erff: a
# two-branch polynomial with an exp; powf: log2/exp2 in extended precision plus special cases).
EXACT_MATH = {"erf": 40, "erfc": 45, "erfinv": 60, "pow": 150, "tanh": 30, "atan2": 60,
              "atan": 40, "asin": 40, "acos": 40, "cbrt": 40, "expm1": 30, "log1p": 30,
              "sinh": 35, "cosh": 35, "lgamma": 120, "tgamma": 120}
EXACT_NAMESPACES = ("libdevice", "math")  # libdevice.pow, tl.math.erf, tl.extra.cuda.libdevice.tanh


def _exact_math_calls(kernel) -> list[ast.Call]:
    """Calls of an accurate libdevice function: `erf` under any name (tl.erf is libdevice's), the
    others only through a libdevice / math namespace (a user's own `tanh` helper is not one)."""
    out = []
    for call in kernel.calls(*EXACT_MATH):
        path = dotted(call.func)
        if call_name(call) == "erf" or any(part in EXACT_NAMESPACES for part in path.split(".")[:-1]):
            out.append(call)
    return out


@detector("exact-erf-elementwise", ("cuda",))
def exact_erf_elementwise(module: KernelModule, backend: str) -> list[Match]:
    """Accurate libdevice math (erf, pow, tanh, ...) applied per element in a kernel with no dot:
    each is a branchy polynomial-and-exp sequence that, with the loads, stores and the rest of the
    math, can exceed what one element may cost at copy bandwidth. A GEMM's epilogue is hidden
    under the MMA, so kernels with a dot are left alone."""
    matches = []
    for kernel in module.kernels.values():
        calls = _exact_math_calls(kernel)
        if not calls or kernel.calls("dot", "dot_scaled"):
            continue
        cost = sum(EXACT_MATH[call_name(c)] for c in calls)
        names = sorted({call_name(c) for c in calls})
        reduces = bool(kernel.calls("sum", "max", "min", "reduce", "cumsum", "associative_scan"))
        confidence = 0.35 if reduces else (0.65 if cost > 2 * BUDGET_PER_ELEMENT else 0.5)
        matches.append(_match(
            module, kernel, calls[0], "exact-erf-elementwise", confidence,
            f"`{kernel.name}` evaluates {', '.join(names)} exactly per element ({len(calls)} "
            f"call(s)): libdevice's accurate fp32 {'/'.join(names)} cost about {cost} instructions "
            f"per element, against about {BUDGET_PER_ELEMENT} a kernel can issue per 2-byte element "
            "at H200 copy bandwidth, so the kernel can be instruction-bound below the copy ceiling.",
            ["profile: memory-bound kernel well under the copy ceiling while a copy of the same bytes reaches it",
             "TTGIR: math.erf or tt.extern_elementwise __nv_powf / __nv_tanhf on a tensor reaches "
             "the LLVM lowering"],
            erf_calls=len(calls), functions=names, instructions=cost))
    return matches


def _counted_compares(node: ast.AST, equal: bool = False, kernel: JitKernel | None = None,
                      depth: int = 3) -> list[ast.Compare]:
    """The comparisons a count adds up: `cmp`, `cmp.to(...)`, `tl.where(cmp, 1, 0)`, `tl.sum(...)` of
    those, each side of a `&` (a compare and its bounds mask), and, with `kernel`, a local bound
    once to such a value; ordering compares, or with `equal` equalities too."""
    ops = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq) if equal else (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
    while True:
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ops):
            return [node]
        name = call_name(node) if isinstance(node, ast.Call) else ""
        if name == "to" and isinstance(node.func, ast.Attribute):
            node = node.func.value  # cmp.to(tl.int32)
        elif name in ("sum", "where") and node.args:
            node = node.args[0]  # tl.sum(cmp, axis=1), tl.where(cmp, 1, 0)
        elif kernel is not None and depth > 0 and isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
            return (_counted_compares(node.left, equal, kernel, depth - 1)
                    + _counted_compares(node.right, equal, kernel, depth - 1))
        elif kernel is not None and depth > 0 and isinstance(node, ast.Name) \
                and len(kernel.assigns.get(node.id, [])) == 1 and isinstance(kernel.assigns[node.id][0], ast.Assign):
            node, depth = kernel.assigns[node.id][0].value, depth - 1  # `below = (t < x) & live`
        else:
            return []


def _counted_compare(node: ast.AST, equal: bool = False) -> ast.Compare | None:
    """The comparison a count adds up, as written at the count (see _counted_compares)."""
    found = _counted_compares(node, equal)
    return found[0] if found else None


def _table_against_elements(kernel: JitKernel, cmp: ast.Compare, inside: set[str], loads: set[str],
                            loop_vars: frozenset[str] | set[str] = frozenset()) -> bool:
    """One side of `cmp` reads entries the loop loads (the table: a name bound to them, or the
    load written in the compare, `t >= tl.load(knots + j)`), the other the elements: values
    loaded outside the loop, read directly or through what the kernel computes from them (a hash)."""
    outside = loads - inside

    def elements(side: ast.expr) -> bool:
        names = names_in(side)
        return bool(names & outside or depends_on(kernel, side, frozenset(inside)) & outside)

    def entries(side: ast.expr) -> bool:
        return bool(names_in(side) & inside) or any(
            isinstance(c, ast.Call) and call_name(c) == "load" and _indexed_by(kernel, c, loop_vars)
            for c in ast.walk(side))

    sides = [cmp.left, cmp.comparators[0]]
    table = [entries(s) for s in sides]
    return sorted(table) == [False, True] and any(elements(s) and not t for s, t in zip(sides, table, strict=True))


SIZED_WALK = 0.6  # a table walk whose length the kernel read from memory


def _data_sized(kernel: JitKernel, loop: ast.For, loads: set[str]) -> bool:
    """The loop's range bounds read memory: a loaded name, or a load written in the range."""
    bounds = loop.iter.args if isinstance(loop.iter, ast.Call) else []
    return any(names_in(b) & loads or depends_on(kernel, b) & loads
               or any(isinstance(c, ast.Call) and call_name(c) == "load" for c in ast.walk(b))
               for b in bounds)


@detector("linear-table-scan")
def linear_table_scan(module: KernelModule, backend: str) -> list[Match]:
    """A loop over a second tensor (a table of boundaries, a CDF, offsets) whose every entry, or
    chunk of entries, is compared with each element and the comparisons counted: the element's
    rank in the table found in O(table) compares. When the table is sorted (bucketize,
    searchsorted, sampling from a CDF), a binary search finds the same rank in O(log table)."""
    matches = []
    for kernel in module.kernels.values():
        loads = {t.id for s in ast.walk(kernel.node) if isinstance(s, ast.Assign)
                 and any(call_name(c) == "load" for c in ast.walk(s.value)) for t in s.targets
                 if isinstance(t, ast.Name)}
        counted: set[int] = set()  # a count in nested loops is one finding
        for loop in (n for n in ast.walk(kernel.node) if isinstance(n, ast.For)):
            loop_vars = names_in(loop.target)
            # a walk as long as a length the kernel read (`range(0, tl.max(cnt))`): the table is
            # data, sized only at run time, and every element pays its whole length
            confidence = SIZED_WALK if _data_sized(kernel, loop, loads) else 0.55
            entry_loads = [s for s in ast.walk(loop) if isinstance(s, ast.Assign)
                           and any(call_name(c) == "load" for c in ast.walk(s.value))
                           and _indexed_by(kernel, s.value, loop_vars)]
            inside = {t.id for s in entry_loads for t in s.targets if isinstance(t, ast.Name)}
            # the table's entries are loaded there: narrow loads the IR shows at those lines are theirs
            entry_lines = sorted({s.lineno for s in entry_loads})
            for aug in (s for s in ast.walk(loop) if isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add)):
                cmp = next((c for c in _counted_compares(aug.value, True, kernel)
                            if _table_against_elements(kernel, c, inside, loads, loop_vars)), None)
                if cmp is None or id(aug) in counted or isinstance(cmp.ops[0], ast.Eq) and not _intersection(kernel, cmp):
                    continue
                counted.add(id(aug))
                what = ("the entries of a table it walks in a loop equal to each element (two slices of one "
                        "index list intersected pair by pair)" if isinstance(cmp.ops[0], ast.Eq) else
                        "the entries of a table it walks in a loop")
                matches.append(_match(
                    module, kernel, aug, "linear-table-scan", confidence,
                    f"`{kernel.name}` counts, for each element, {what} "
                    f"(`{ast.unparse(aug)[:70]}`): the element's rank in the table costs one compare per "
                    "entry, so the kernel's time grows with the table's length; a sorted table gives the "
                    "same rank in log2(length) halving steps of a binary search.",
                    ["the table is sorted (bucket boundaries, a CDF, segment offsets)",
                     "profile: compute-bound, time growing with the table length at fixed element count"],
                    value_lines=entry_lines))
                break
            lookup = None if id(loop) in counted else _interval_lookup(kernel, loop, inside, loads)
            if lookup is not None:
                stmt, does, cost, needed = lookup
                counted.add(id(loop))
                matches.append(_match(
                    module, kernel, stmt, "linear-table-scan", confidence,
                    f"`{kernel.name}` {does} (`{ast.unparse(stmt)[:70]}`): {cost}", needed,
                    value_lines=entry_lines))
        for call in kernel.calls("sum"):  # the whole table at once: an outer compare, counted
            cmp = _counted_compare(call)
            if cmp is not None and _outer(cmp.left, cmp.comparators[0]):
                matches.append(_match(
                    module, kernel, call, "linear-table-scan", 0.55,
                    f"`{kernel.name}` counts, for each element, the table entries below it with an "
                    f"outer compare (`{ast.unparse(call)[:70]}`): one compare per entry and element, "
                    "so the kernel's time grows with the table's length; a sorted table gives the "
                    "same rank in log2(length) halving steps of a binary search.",
                    ["the table is sorted (bucket boundaries, a CDF, segment offsets)",
                     "profile: compute-bound, time growing with the table length at fixed element count"]))
                break
        for call in kernel.calls("argmin", "argmax"):  # the nearest entry, every distance taken
            if _outer_distance(kernel, call.args[0] if call.args else None):
                matches.append(_match(
                    module, kernel, call, "linear-table-scan", 0.55,
                    f"`{kernel.name}` finds, for each element, the nearest entry of a table by taking "
                    f"its distance to every entry (`{ast.unparse(call)[:70]}`): one subtract, abs and "
                    "compare per entry and element, so the kernel's time grows with the table's "
                    "length; in a sorted table a binary search brackets the element in log2(length) "
                    "halving steps and one compare of the two neighbours picks the nearest.",
                    ["the table is sorted (a quantization code book, bin centres, knots)",
                     "profile: compute-bound, time growing with the table length at fixed element count"]))
                break
    return matches


def _outer_distance(kernel: JitKernel, node: ast.AST | None) -> bool:
    """`tl.abs(x[:, None] - t[None, :])` or its square: the distance of every element of one
    vector to every entry of another (through locals bound once to them)."""
    node = bound_once(kernel, node) if isinstance(node, ast.expr) else node
    if isinstance(node, ast.Call) and call_name(node) in ("abs", "fabs") and node.args:
        node = node.args[0]
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) \
            and ast.dump(node.left) == ast.dump(node.right):
        node = node.left  # d * d
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        node = node.left  # d ** 2
    else:
        return False
    node = bound_once(kernel, node)  # d = x[:, None] - t[None, :]
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and _outer(node.left, node.right) \
        and all(len(_none_axes(side) or ()) == 1 and len(side.slice.elts) == 2  # two vectors, not rows
                for side in (node.left, node.right))


def _segment_select(kernel: JitKernel, loop: ast.For, inside: set[str], loads: set[str]) -> ast.Assign | None:
    """`res = tl.where(cond, value, res)` in the loop, `res` carried across steps, `cond` an
    ordering of the table entries the loop loads against the elements (`(v >= x0) & (v < x1)`):
    a piecewise lookup that tests every segment for every element."""
    for stmt in loop.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Call) and call_name(stmt.value) == "where"
                and len(stmt.value.args) == 3):
            continue
        target = stmt.targets[0].id
        cond, kept, other = stmt.value.args
        if target not in names_in(kept) | names_in(other):
            continue  # not a value the loop carries and refines
        if any(isinstance(c.ops[0], ast.Lt | ast.LtE | ast.Gt | ast.GtE)
               and _table_against_elements(kernel, c, inside, loads)
               for c in _counted_compares(cond, False, kernel)):
            return stmt
    return None


def _interval_lookup(kernel: JitKernel, loop: ast.For, inside: set[str],
                     loads: set[str]) -> tuple[ast.stmt, str, str, list[str]] | None:
    """(statement, what it does, what that costs, evidence needed) of a loop that finds each
    element's interval of the table it walks: membership OR-ed over a tile, or a segment
    selected into a carried value."""
    member = _membership(kernel, loop, inside)
    if member is not None:
        return (member, "decides, for each element, which interval of a table it walks in a loop "
                "the element falls in",
                "every entry is compared with the whole tile and the answers OR-ed together, so the "
                "kernel's time grows with the table's length; a sorted table gives each element's "
                "interval in log2(length) halving steps of a binary search.",
                ["the table is sorted (document boundaries, segment offsets, bucket edges)",
                 "profile: vector work growing with the table length at fixed tile count"])
    select = _segment_select(kernel, loop, inside, loads)
    if select is not None:
        return (select, "finds, for each element, the segment of a table it walks in a loop",
                "every entry is compared with every element and the matching segment selected, so "
                "the kernel's time grows with the table's length; a sorted table gives the segment "
                "in log2(length) halving steps of a binary search, then one evaluation per element.",
                ["the table is sorted (knots of a curve, bucket boundaries, a CDF)",
                 "profile: compute-bound, time growing with the table length at fixed element count"])
    return None


def _membership(kernel: JitKernel, loop: ast.For, inside: set[str]) -> ast.stmt | None:
    """`m = m | ((rows > e) & (cols <= e))` (or `m |= ...`) in the loop, `e` a table entry the
    loop loads and the other side of each ordering a tile the loop does not change (positions or
    values): membership in the table's intervals decided by testing every entry against every
    element, what a search over a sorted table answers per element."""
    shapes = ShapeInference(kernel)
    for stmt in loop.body:
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.BitOr):
            value = stmt.value
        elif (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
              and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.BinOp)
              and isinstance(stmt.value.op, ast.BitOr)):
            target = stmt.targets[0].id
            sides = [stmt.value.left, stmt.value.right]
            carried = [s for s in sides if isinstance(s, ast.Name) and s.id == target]
            if not carried:
                continue
            value = next(s for s in sides if s is not carried[0])
        else:
            continue
        compares = _counted_compares(value, False, kernel)
        if compares and all(_entry_against_tile(c, inside, shapes) for c in compares):
            return stmt
    return None


def _entry_against_tile(cmp: ast.Compare, inside: set[str], shapes: ShapeInference) -> bool:
    """One side of the ordering reads a table entry the loop loads, the other a tile that reads
    none."""
    sides = [cmp.left, cmp.comparators[0]]
    for mine, other in ((sides[0], sides[1]), (sides[1], sides[0])):
        if names_in(mine) & inside and not names_in(other) & inside \
                and is_tile(shapes.shape(other, cmp.lineno)):
            return True
    return False


def _none_axes(node: ast.AST) -> tuple[int, ...] | None:
    """`t[None, :]` -> (0,), `v[:, None]` -> (1,): where a subscript inserts new axes."""
    if not isinstance(node, ast.Subscript):
        return None
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    axes = tuple(i for i, p in enumerate(parts) if isinstance(p, ast.Constant) and p.value is None)
    return axes if axes and len(parts) >= 2 else None


def _intersection(kernel, cmp: ast.Compare) -> bool:
    """Every pair of two tiles compared for equality, both tiles loaded from one array (two
    slices of one index list: sorted neighbour lists intersected, as in triangle counting)."""
    left, right = cmp.left, cmp.comparators[0]
    if not _outer(left, right):
        return False
    shapes = ShapeInference(kernel)

    def arrays(side: ast.AST, depth: int = 2) -> set[str]:
        """The arrays a side's values are loaded from, through a select that fills the masked
        lanes of a load (`t = tl.load(p, mask=m)`; `t = tl.where(m, t, -1)`)."""
        found: set[str] = set()
        for name in names_in(side):
            value = shapes.definition(name, side.lineno)
            if value is None:
                continue
            if depth and isinstance(value, ast.Call) and call_name(value) == "where" and len(value.args) == 3:
                found |= {p for arg in value.args[1:] for p in arrays(arg, depth - 1)}  # not its mask's
                continue
            found |= {p for c in ast.walk(value) if isinstance(c, ast.Call) and call_name(c) == "load"
                      for p in _pointer_params(kernel, c)}
        return found

    return bool(arrays(left) & arrays(right))


def _outer(left: ast.AST, right: ast.AST) -> bool:
    """Two operands broadcast against each other along different new axes (every pair compared)."""
    a, b = _none_axes(left), _none_axes(right)
    return a is not None and b is not None and set(a).isdisjoint(b)


def _indexed_by(kernel, value: ast.AST, loop_vars: set[str]) -> bool:
    """The load's pointer depends on the loop variable (directly or through locals)."""
    return bool(depends_on(kernel, value) & loop_vars) or bool(names_in(value) & loop_vars)
