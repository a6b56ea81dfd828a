"""One program per unit: a kernel whose program walks independent units in turn (the groups of a
sample, the rows of a chunk) gets the units as a second grid axis, when the source shows the units
share nothing: no state carried between them, no output slot, no input they also write."""

from __future__ import annotations

import ast

from diagnose.proposers import Candidate

from .launchargs import bound_args, grid_tuple, host_text
from .source import Edit, Source, apply, dotted, int_value, jit_kernels, launches
from .split import program_ids


def _names(node: ast.AST, ctx: type) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ctx)}


def _carried(body: list[ast.stmt]) -> bool:
    """A name read in an iteration before the iteration surely assigns it: state carried across
    units. Assignments inside an inner loop do not count after it (it may run zero times)."""
    stored = set().union(*(_names(s, ast.Store) for s in body))
    return _read_before_set(body, set(), stored)


def _read_before_set(stmts: list[ast.stmt], assigned: set[str], stored: set[str]) -> bool:
    for stmt in stmts:
        if isinstance(stmt, ast.For):
            if (_names(stmt.iter, ast.Load) & stored) - assigned:
                return True
            if _read_before_set(stmt.body, assigned | _names(stmt.target, ast.Store), stored):
                return True
            continue
        if isinstance(stmt, ast.If):
            then, other = set(assigned), set(assigned)
            if ((_names(stmt.test, ast.Load) & stored) - assigned or _read_before_set(stmt.body, then, stored)
                    or _read_before_set(stmt.orelse, other, stored)):
                return True
            assigned |= then & other
            continue
        if isinstance(stmt, ast.While | ast.With | ast.Try):
            return True  # not followed: assume the worst
        reads = _names(stmt, ast.Load)
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            reads.add(stmt.target.id)
        if (reads & stored) - assigned:
            return True
        assigned |= _names(stmt, ast.Store)
    return False


def _depends(body: list[ast.stmt], var: str) -> set[str]:
    """Names whose value depends on the loop variable (assignments followed to a fixed point)."""
    deps = {var}
    assigns = [n for s in body for n in ast.walk(s) if isinstance(n, ast.Assign | ast.AugAssign)]
    changed = True
    while changed:
        changed = False
        for a in assigns:
            if _names(a.value, ast.Load) & deps:
                new = _names(a, ast.Store) - deps
                if new:
                    deps |= new
                    changed = True
    return deps


def _memory(node: ast.AST, kind: str) -> list[ast.Call]:
    return [c for c in ast.walk(node) if isinstance(c, ast.Call) and dotted(c.func).startswith(f"tl.{kind}")]


def _independent_loop(fn: ast.FunctionDef) -> ast.For | None:
    """The kernel's last statement, `for v in range(STOP)` over units that share nothing: no carried
    state, no early exit, every store addressed through v, no pointer both read and written; and
    nothing before it writes memory or loops (it would run once per unit)."""
    loop = fn.body[-1]
    if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name) and _unit_range(loop) is not None
            and not loop.orelse):
        return None
    if any(_memory(s, "store") or _memory(s, "atomic") for s in fn.body[:-1]):
        return None
    if any(isinstance(n, ast.For | ast.While) for s in fn.body[:-1] for n in ast.walk(s)):
        return None  # a loop before it (a first pass over the row) would run again in every unit
    if any(isinstance(n, ast.Break | ast.Continue | ast.Return) for n in ast.walk(loop)):
        return None
    if loop.target.id in set().union(*(_names(s, ast.Store) for s in loop.body)) or _carried(loop.body):
        return None
    deps = _depends(loop.body, loop.target.id)
    stores = _memory(loop, "store") + _memory(loop, "atomic")
    if not stores or any(not (_names(s.args[0], ast.Load) & deps) for s in stores if s.args):
        return None
    params = {a.arg for a in fn.args.args}
    env = {n.targets[0].id: n.value for n in ast.walk(fn) if isinstance(n, ast.Assign)
           and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)}
    written = set().union(*(_bases(s.args[0], params, env) for s in stores if s.args))
    read = set().union(*(_bases(c.args[0], params, env) for c in _memory(loop, "load") if c.args))
    return None if written & read else loop


def _bases(pointer: ast.expr, params: set[str], env: dict[str, ast.expr], depth: int = 0) -> set[str]:
    """Parameters added as whole terms of a pointer expression, through locals bound to such sums:
    its base pointers (a stride is multiplied, a pointer only added)."""
    if isinstance(pointer, ast.BinOp) and isinstance(pointer.op, ast.Add):
        return _bases(pointer.left, params, env, depth) | _bases(pointer.right, params, env, depth)
    if isinstance(pointer, ast.Name):
        if pointer.id in params:
            return {pointer.id}
        if pointer.id in env and depth < 4:
            return _bases(env[pointer.id], params, env, depth + 1)
    return set()


def _unit_range(loop: ast.For) -> tuple[ast.expr, ast.expr | None] | None:
    """(STOP, STEP or None) of `range(STOP)`, `range(0, STOP)` or `range(0, STOP, STEP)`."""
    it = loop.iter
    if not (isinstance(it, ast.Call) and dotted(it.func) == "range" and not it.keywords and 1 <= len(it.args) <= 3):
        return None
    if len(it.args) == 1:
        return it.args[0], None
    if int_value(it.args[0]) != 0:
        return None
    return it.args[1], (it.args[2] if len(it.args) == 3 else None)


def loop_to_grid_axis(text: str) -> list[Candidate]:
    """A program that walks independent units in turn (`for g in range(G)`, or the blocks of a
    long row `for start in range(0, N, BLOCK)`, at the end of a kernel on a 1-D grid) -> one
    program per unit: `g = tl.program_id(1)` (`start = tl.program_id(1) * BLOCK`), the grid gains
    G (`triton.cdiv(N, BLOCK)`)."""
    src = Source(text)
    kernels = {k.name: k for k in jit_kernels(src.tree)}
    for launch in launches(src.tree):
        fn = kernels.get(launch.kernel)
        if fn is None or any(c.args and int_value(c.args[0]) != 0 for c in program_ids(fn)[1]):
            continue
        loop = _independent_loop(fn)
        args = bound_args(launch, fn) if loop else None
        grid = grid_tuple(launch) if args is not None else None
        count = _unit_count(src, loop, args) if grid else None
        if count is None or len(grid[0].elts) != 1:
            continue
        step = _unit_range(loop)[1]
        edits = [_unrolled(src, loop, src.segment(step) if step is not None else None),
                 src.replace(grid[0], f"({src.segment(grid[0].elts[0])}, {count})")]
        return [Candidate(apply(text, edits), f"{launch.kernel}: one program per {loop.target.id} "
                          f"(grid axis 1 of {count}) instead of a loop over them in each program",
                          {"kernel": launch.kernel, "axis": 1, "unit": loop.target.id})]
    return []


def _unit_count(src: Source, loop: ast.For, args: dict[str, ast.expr]) -> str | None:
    """The number of units in the launcher's terms: STOP, or triton.cdiv(STOP, STEP)."""
    stop, step = _unit_range(loop)
    stop_h = host_text(src, stop, args)
    if step is None or stop_h is None:
        return stop_h
    step_h = host_text(src, step, args)
    return f"triton.cdiv({stop_h}, {step_h})" if step_h is not None else None


def _unrolled(src: Source, loop: ast.For, step: str | None) -> Edit:
    """`for v in range(S):` + body -> `v = tl.program_id(1)` (times the step) + the body one
    level out."""
    indent = " " * loop.col_offset
    shift = loop.body[0].col_offset - loop.col_offset
    start = src._line_starts[loop.lineno - 1]
    end = src._line_starts[loop.end_lineno]
    body = src.text[src._line_starts[loop.body[0].lineno - 1]:end]
    lines = [line[shift:] if line[:shift].isspace() else line for line in body.splitlines(keepends=True)]
    unit = "tl.program_id(1)" + (f" * {step}" if step is not None else "")
    return Edit(start, end, f"{indent}{loop.target.id} = {unit}\n" + "".join(lines))
