"""One launch over a grid: a host loop `for i in range(B): k[grid](x[i], ..., out[i], ...)` becomes
one launch whose extra grid axis is i; the kernel takes each indexed tensor's leading stride and
offsets its pointer by `tl.program_id(axis)`. Only that exact shape is rewritten."""

from __future__ import annotations

import ast

from diagnose.proposers import Candidate

from .launchargs import bound_args, grid_tuple, is_constexpr, name_loads
from .source import Edit, Launch, Source, apply, dotted, jit_kernels, launches

MAX_AXES = 3


def _loop_of(launch: Launch) -> ast.For | None:
    """The `for NAME in range(STOP)` (or range(0, STOP)) whose whole body is this launch."""
    for node in ast.walk(launch.function):
        if (isinstance(node, ast.For) and len(node.body) == 1 and not node.orelse
                and isinstance(node.body[0], ast.Expr) and node.body[0].value is launch.call
                and isinstance(node.target, ast.Name) and isinstance(node.iter, ast.Call)
                and dotted(node.iter.func) == "range" and not node.iter.keywords):
            args = node.iter.args
            if len(args) == 1 or (len(args) == 2 and isinstance(args[0], ast.Constant) and args[0].value == 0):
                return node
    return None


def _indexed(arg: ast.expr, var: str) -> str | None:
    """`x[i]` -> 'x'."""
    if (isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Name)
            and isinstance(arg.slice, ast.Name) and arg.slice.id == var):
        return arg.value.id
    return None


def _batched_params(launch: Launch, fn: ast.FunctionDef, var: str) -> dict[str, str] | None:
    """Kernel parameter -> host tensor for every argument `x[i]`; None if the loop variable
    appears anywhere else in the launch (or in no argument)."""
    args = bound_args(launch, fn)
    if args is None:
        return None
    out = {}
    for param, arg in args.items():
        tensor = _indexed(arg, var)
        if tensor is not None:
            out[param] = tensor
        elif any(isinstance(n, ast.Name) and n.id == var for n in ast.walk(arg)):
            return None
    if any(isinstance(n, ast.Name) and n.id == var for n in ast.walk(launch.grid)):
        return None
    return out or None


def _kernel_uses_axis(fn: ast.FunctionDef, axis: int) -> bool:
    return any(isinstance(n, ast.Call) and dotted(n.func) in ("tl.program_id", "tl.num_programs")
               and n.args and not (isinstance(n.args[0], ast.Constant) and n.args[0].value < axis)
               for n in ast.walk(fn))


def _fresh(fn: ast.FunctionDef, base: str) -> str:
    used = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)} | {a.arg for a in fn.args.args}
    name, k = base, 2
    while name in used:
        name, k = f"{base}{k}", k + 1
    return name


def _launched_once(tree: ast.Module, kernel: str) -> bool:
    return sum(isinstance(n, ast.Name) and n.id == kernel for n in ast.walk(tree)) == 1


def launch_loop_to_grid_axis(text: str) -> list[Candidate]:
    """The host loop over launches -> one launch with the loop as the last grid axis."""
    src = Source(text)
    kernels = {k.name: k for k in jit_kernels(src.tree)}
    for launch in launches(src.tree):
        fn = kernels.get(launch.kernel)
        loop = _loop_of(launch) if fn else None
        grid = grid_tuple(launch) if loop else None
        if grid is None or len(grid[0].elts) >= MAX_AXES or not _launched_once(src.tree, launch.kernel):
            continue
        axis = len(grid[0].elts)
        batched = _batched_params(launch, fn, loop.target.id)
        if batched is None or _kernel_uses_axis(fn, axis):
            continue
        edits = _kernel_edits(src, fn, batched, axis)
        if edits is None:
            continue
        edits += _host_edits(src, launch, loop, grid, batched)
        count = src.segment(loop.iter.args[-1])
        return [Candidate(apply(text, edits), f"{launch.kernel}: one launch over grid axis {axis} "
                          f"instead of a host loop of {count} launches",
                          {"kernel": launch.kernel, "axis": axis, "batched": sorted(batched)})]
    return []


def _stride_name(param: str) -> str:
    return f"stride_{param.removesuffix('_ptr')}_batch"


def _kernel_edits(src: Source, fn: ast.FunctionDef, batched: dict[str, str], axis: int) -> list[Edit] | None:
    """New stride parameters before the first constexpr (or at the end), and the pointer offsets
    at the top of the body."""
    params = fn.args.args
    if fn.args.defaults or fn.args.vararg or fn.args.kwonlyargs:
        return None
    new = [_stride_name(p) for p in batched]
    if any(n in {a.arg for a in params} for n in new):
        return None
    first_const = next((a for a in params if is_constexpr(a)), None)
    if first_const is not None:
        at = src.span(first_const)[0]
        sig = Edit(at, at, "".join(f"{n}, " for n in new))
    else:
        at = src.span(params[-1])[1]
        sig = Edit(at, at, "".join(f", {n}" for n in new))
    first = fn.body[0]
    indent = " " * first.col_offset
    pid = _fresh(fn, "batch")
    lines = [f"{indent}{pid} = tl.program_id({axis}).to(tl.int64)\n"]
    lines += [f"{indent}{p} += {pid} * {_stride_name(p)}\n" for p in batched]
    body_at = src._line_starts[first.lineno - 1]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        body_at = src._line_starts[first.end_lineno]  # after the docstring
    return [sig, Edit(body_at, body_at, "".join(lines))]


def _host_edits(src: Source, launch: Launch, loop: ast.For, grid: tuple[ast.Tuple, ast.Assign | None],
                batched: dict[str, str]) -> list[Edit]:
    """The loop replaced by its launch (dedented), `x[i]` by `x`, the strides passed by keyword,
    the loop's range appended to the grid."""
    count = src.segment(loop.iter.args[-1])
    inner = []
    args = bound_args(launch, _kernel_of(src, launch))
    for param, tensor in batched.items():
        a, b = src.span(args[param])
        inner.append((a, b, tensor))
    end = src.span(launch.call)[1] - 1  # before the closing parenthesis
    extra = ", ".join(f"{_stride_name(p)}={t}.stride(0)" for p, t in batched.items())
    inner.append((end, end, f", {extra}"))
    tup, stmt = grid
    elems = ", ".join(src.segment(e) for e in tup.elts)
    new_grid = f"({elems}, {count})"
    shared = stmt is not None and len(name_loads(launch.function, launch.grid.id)) > 1
    if stmt is None or shared:  # a grid name other launches read stays as it is
        a, b = src.span(launch.grid)
        inner.append((a, b, new_grid))
    call_start, call_end = src.span(launch.call)
    call = src.text[call_start:call_end]
    for a, b, t in sorted(inner, key=lambda e: e[0], reverse=True):
        call = call[:a - call_start] + t + call[b - call_start:]
    shift = launch.call.col_offset - loop.col_offset
    call = "\n".join(line[shift:] if i and line[:shift].isspace() else line
                     for i, line in enumerate(call.split("\n")))
    edits = [Edit(src.span(loop)[0], src.span(loop)[1], call)]
    if stmt is not None and not shared:
        edits.append(src.replace(tup, new_grid))
    return edits


def _kernel_of(src: Source, launch: Launch) -> ast.FunctionDef:
    return next(k for k in jit_kernels(src.tree) if k.name == launch.kernel)
