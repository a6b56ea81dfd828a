"""More programs where tier 2 shows too few: a grid-stride loop launched over a fixed program count
gets more programs (multiples of the SM count, or one per item), and a program that walks a fixed
chunk of rows gets a smaller chunk. Both stay correct for any program count by construction."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from diagnose.proposers import Candidate

from .launchargs import assigned_once, bound_args, grid_tuple, host_text, name_loads
from .source import (
    Edit,
    Launch,
    Source,
    apply,
    dotted,
    grid_nodes,
    int_value,
    jit_kernels,
    launches,
)

SM_MULTIPLES = (2, 4, 8)
ROWS_DIVISORS = (4, 16, 64)
SM_HELPER = "_sm_count"


@dataclass
class GridStride:
    """`for v in range(pid * S, STOP, NP * S)` in a kernel whose pid appears nowhere else."""

    stop: ast.expr
    scale: ast.expr | None  # S, None when 1
    count_param: str | None  # NP as a kernel parameter; None when tl.num_programs(0)


def _mul_parts(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _mul_parts(node.left) + _mul_parts(node.right)
    return [node]


def _split_factor(node: ast.expr, is_core) -> tuple[ast.expr | None, bool]:
    """`core` or `core * S` / `S * core` -> (S or None, True); anything else -> (None, False)."""
    parts = _mul_parts(node)
    cores = [p for p in parts if is_core(p)]
    rest = [p for p in parts if not is_core(p)]
    if len(cores) != 1 or len(rest) > 1:
        return None, False
    return (rest[0] if rest else None), True


def program_ids(fn: ast.FunctionDef) -> tuple[set[str], list[ast.Call]]:
    """Names bound to `tl.program_id(0)` and every program_id/num_programs call of the kernel."""
    calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call)
             and dotted(n.func) in ("tl.program_id", "tl.num_programs")]
    return _bound_to(fn, "tl.program_id"), calls


def _bound_to(fn: ast.FunctionDef, call: str) -> set[str]:
    """Names the kernel binds, at its top level, to `call(...)` (`pid = tl.program_id(0)`)."""
    return {s.targets[0].id for s in fn.body if isinstance(s, ast.Assign) and len(s.targets) == 1
            and isinstance(s.targets[0], ast.Name) and isinstance(s.value, ast.Call)
            and dotted(s.value.func) == call}


def grid_stride(fn: ast.FunctionDef) -> GridStride | None:
    names, calls = program_ids(fn)
    if any(c.args and int_value(c.args[0]) != 0 for c in calls):
        return None  # a 2-D grid: not ours
    counts = _bound_to(fn, "tl.num_programs")
    params = {a.arg for a in fn.args.args}
    loops = [n for n in ast.walk(fn) if isinstance(n, ast.For) and isinstance(n.iter, ast.Call)
             and dotted(n.iter.func) in ("range", "tl.range") and len(n.iter.args) == 3]
    for loop in loops:
        found = _stride_of(loop.iter, names, counts, params)
        if found is not None and not _pid_used_elsewhere(fn, loop, names | counts, calls, found.count_param):
            return found
    return None


def _stride_of(rng: ast.Call, pid_names: set[str], count_names: set[str], params: set[str]) -> GridStride | None:
    """`range(pid * S, STOP, NP * S)` -> GridStride (S may be absent from both); NP is
    tl.num_programs(0), a name bound to it, or a parameter (whose argument must be the count)."""
    start, stop, step = rng.args

    def is_pid(n: ast.AST) -> bool:
        return (isinstance(n, ast.Call) and dotted(n.func) == "tl.program_id") or (
            isinstance(n, ast.Name) and n.id in pid_names)

    scale, ok = _split_factor(start, is_pid)
    scale_dump = ast.dump(scale) if scale is not None else ""

    def is_count(n: ast.AST) -> bool:
        return (isinstance(n, ast.Call) and dotted(n.func) == "tl.num_programs") or (
            isinstance(n, ast.Name) and n.id in params | count_names and ast.dump(n) != scale_dump)

    step_scale, ok2 = _split_factor(step, is_count)
    if not (ok and ok2) or scale_dump != (ast.dump(step_scale) if step_scale is not None else ""):
        return None
    count = next(p for p in _mul_parts(step) if is_count(p))
    return GridStride(stop, scale, count.id if isinstance(count, ast.Name) and count.id in params else None)


def _pid_used_elsewhere(fn, loop: ast.For, names: set[str], calls: list[ast.Call], count: str | None) -> bool:
    """The program id or count reaches anything but the loop's range (an output slot per
    program, a partial sum): the program count is then part of the result."""
    in_range = {id(n) for n in ast.walk(loop.iter)}
    bindings = {id(n) for s in fn.body if isinstance(s, ast.Assign) and len(s.targets) == 1
                and isinstance(s.targets[0], ast.Name) and s.targets[0].id in names for n in ast.walk(s)}
    # (names: the program id's and the count's; a count parameter is watched too)
    watched = set(names) | ({count} if count else set())
    uses = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id in watched and isinstance(n.ctx, ast.Load)]
    return (any(id(c) not in in_range | bindings for c in calls)
            or any(id(n) not in in_range for n in uses))


def _count_sites(src: Source, launch: Launch, args: dict[str, ast.expr], stride: GridStride) -> list[ast.expr] | None:
    """The host expressions that hold the program count: the grid's only element and the count
    parameter's argument. Each is a literal or a name bound once to a literal and used only there."""
    grid = grid_tuple(launch)
    if grid is None or len(grid[0].elts) != 1:
        return None
    sites = [grid[0].elts[0]]
    if stride.count_param:
        arg = args.get(stride.count_param)
        if arg is None or ast.dump(arg) != ast.dump(sites[0]):
            return None
        sites.append(arg)
    first = sites[0]
    if int_value(first) is not None:
        return sites
    if isinstance(first, ast.Name):
        stmt = assigned_once(launch.function, first.id)
        grid_name = launch.grid.id if isinstance(launch.grid, ast.Name) else None
        uses = name_loads(launch.function, first.id)
        if stmt is not None and int_value(stmt.value) is not None and len(uses) == len(sites) and grid_name != first.id:
            return sites
    return None


def widen_grid_stride(text: str) -> list[Candidate]:
    """A grid-stride kernel launched over a fixed program count -> one program per item, or
    2/4/8 programs per SM (a loop over range(pid, n, programs) is right for any count)."""
    src = Source(text)
    kernels = {k.name: k for k in jit_kernels(src.tree)}
    for launch in launches(src.tree):
        fn = kernels.get(launch.kernel)
        stride = grid_stride(fn) if fn else None
        args = bound_args(launch, fn) if stride else None
        sites = _count_sites(src, launch, args, stride) if args is not None else None
        if sites is None:
            continue
        return _grid_candidates(src, launch, args, stride, sites)
    return []


def _grid_candidates(src: Source, launch: Launch, args, stride: GridStride, sites: list[ast.expr]) -> list[Candidate]:
    out = []
    stop = host_text(src, stride.stop, args)
    scale = host_text(src, stride.scale, args) if stride.scale is not None else "1"
    if stop is not None and scale is not None:
        per_item = stop if scale == "1" else f"triton.cdiv({stop}, {scale})"
        out.append(_with_count(src, sites, per_item, launch, "one program per item", {"programs": "per-item"}))
    device = _device_of(src, launch)
    if device is not None and "torch" in _imported(src.tree):
        for k in SM_MULTIPLES:
            out.append(_with_count(src, sites, f"{k} * {SM_HELPER}({device})", launch,
                                   f"{k} programs per SM", {"programs": f"{k}*SMs"}, helper=True))
    return [c for c in out if c is not None]


def _with_count(src: Source, sites: list[ast.expr], expr: str, launch: Launch, what: str,
                params: dict, helper: bool = False) -> Candidate | None:
    bound = _bound_literal(src, launch, sites[0], expr)
    edits = [src.replace(bound, expr)] if bound is not None else [src.replace(s, expr) for s in sites]
    if helper:
        edits.append(_helper_edit(src))
    try:
        new = apply(src.text, edits)
    except SyntaxError:
        return None
    count = src.segment(bound) if bound is not None else src.segment(sites[0])
    return Candidate(new, f"{launch.kernel}: {what} instead of {count} programs",
                     {"kernel": launch.kernel, **params})


def _bound_literal(src: Source, launch: Launch, site: ast.expr, expr: str) -> ast.expr | None:
    """The literal a count name is bound to, when the new count can be written there: every name
    it reads is a parameter of the host function or bound above that line."""
    if not isinstance(site, ast.Name):
        return None
    stmt = assigned_once(launch.function, site.id)
    if stmt is None:
        return None
    known = {a.arg for a in launch.function.args.args} | {"triton", "torch", SM_HELPER}
    known |= {t.id for n in ast.walk(launch.function) if isinstance(n, ast.Assign) and n.lineno < stmt.lineno
              for t in ast.walk(n.targets[0]) if isinstance(t, ast.Name)}
    needed = {n.id for n in ast.walk(ast.parse(expr, mode="eval")) if isinstance(n, ast.Name)}
    return stmt.value if needed <= known else None


def _device_of(src: Source, launch: Launch) -> str | None:
    """`x.device` of the launch's first argument that is a parameter of the host function."""
    host_params = {a.arg for a in launch.function.args.args}
    for a in launch.call.args:
        if isinstance(a, ast.Name) and a.id in host_params:
            return f"{a.id}.device"
    return None


def _imported(tree: ast.Module) -> set[str]:
    out = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            out |= {a.asname or a.name for a in node.names}
    return out


def _helper_edit(src: Source) -> Edit:
    """`_sm_count(device)` defined before the first kernel (once)."""
    if any(isinstance(n, ast.FunctionDef) and n.name == SM_HELPER for n in src.tree.body):
        return Edit(0, 0, "")
    first = jit_kernels(src.tree)[0]
    line = (first.decorator_list[0] if first.decorator_list else first).lineno
    at = src._line_starts[line - 1]
    helper = (f"def {SM_HELPER}(device: torch.device) -> int:\n"
              '    """Streaming multiprocessors of a CUDA device (1 elsewhere, e.g. the CPU interpreter)."""\n'
              "    if device.type != \"cuda\":\n        return 1\n"
              "    return torch.cuda.get_device_properties(device).multi_processor_count\n\n\n")
    return Edit(at, at, helper)


# ------------------------------------------------------------ rows per program

def _rows_loop_param(fn: ast.FunctionDef) -> str | None:
    """A constexpr R with `pid * R` somewhere and `for r in range(R)`: the program walks R rows."""
    constexprs = {a.arg for a in fn.args.args if a.annotation is not None and "constexpr" in dotted(a.annotation)}
    looped = {n.iter.args[0].id for n in ast.walk(fn) if isinstance(n, ast.For) and isinstance(n.iter, ast.Call)
              and dotted(n.iter.func) == "range" and len(n.iter.args) == 1 and isinstance(n.iter.args[0], ast.Name)}
    for node in ast.walk(fn):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            parts = [node.left, node.right]
            pid = any(isinstance(p, ast.Call) and dotted(p.func) == "tl.program_id" for p in parts)
            names = [p.id for p in parts if isinstance(p, ast.Name) and p.id in constexprs & looped]
            if pid and names:
                return names[0]
    return None


def shrink_rows_per_program(text: str) -> list[Candidate]:
    """A program that loops over R rows (R a literal the grid divides by) -> R/4, R/16, R/64:
    the same code over more programs."""
    src = Source(text)
    kernels = {k.name: k for k in jit_kernels(src.tree)}
    for launch in launches(src.tree):
        fn = kernels.get(launch.kernel)
        param = _rows_loop_param(fn) if fn else None
        args = bound_args(launch, fn) if param else None
        arg = args.get(param) if args else None
        value, sites = _literal_sites(launch, arg)
        if value is None or value < 2:
            continue
        out = []
        for d in ROWS_DIVISORS:
            new = max(1, value // d)
            if new < value and all(c.params["to"] != new for c in out):
                out.append(Candidate(apply(text, [src.replace(s, str(new)) for s in sites]),
                                     f"{launch.kernel}: {param} {value} -> {new}",
                                     {"kernel": launch.kernel, "param": param, "from": value, "to": new}))
        return out
    return []


def _literal_sites(launch: Launch, arg: ast.expr | None) -> tuple[int | None, list[ast.expr]]:
    """The literal behind the argument: itself, or the one literal a name is bound to (its uses
    must all be in this launch: the grid's divisor and the argument)."""
    if arg is None:
        return None, []
    value = int_value(arg)
    if value is not None:  # the grid must divide by the same literal, or it would lose rows
        in_grid = [n for g in grid_nodes(launch) for n in ast.walk(g) if int_value(n) == value]
        return (value, [arg, *in_grid]) if in_grid else (None, [])
    if isinstance(arg, ast.Name):
        stmt = assigned_once(launch.function, arg.id)
        in_grid = any(isinstance(n, ast.Name) and n.id == arg.id for g in grid_nodes(launch) for n in ast.walk(g))
        if stmt is not None and int_value(stmt.value) is not None and in_grid:
            return int_value(stmt.value), [stmt.value]
    return None, []
