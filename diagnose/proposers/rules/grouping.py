"""Grouped program ordering for a GEMM on a 2-D grid: the launch-order id is remapped so that
GROUP_M rows of tiles are walked together (each B column is reused from L2 while it is hot). The
grid stays as it is; the kernel reads its tile indices through the remap, a bijection."""

from __future__ import annotations

import ast

from diagnose.proposers import Candidate

from .gemm import GROUP_M, _axis_blocks, _block_keywords, _has_dot_loop
from .launchloop import _fresh
from .source import Edit, Source, apply, dotted, int_value, jit_kernels, launches

REMAP = """{i}{m_count} = tl.num_programs({am})
{i}{n_count} = tl.num_programs({an})
{i}{pid} = tl.program_id(1) * tl.num_programs(0) + tl.program_id(0)  # launch order: axis 0 fastest
{i}{width} = {group} * {n_count}
{i}{first} = ({pid} // {width}) * {group}
{i}{rows} = min({m_count} - {first}, {group})
{i}{pid_m} = {first} + ({pid} % {width}) % {rows}
{i}{pid_n} = ({pid} % {width}) // {rows}
"""


def _program_id_calls(fn: ast.FunctionDef) -> dict[int, list[ast.Call]]:
    out: dict[int, list[ast.Call]] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and dotted(n.func) in ("tl.program_id", "tl.num_programs"):
            axis = int_value(n.args[0]) if n.args else None
            out.setdefault(axis if dotted(n.func) == "tl.program_id" else -1, []).append(n)
    return out


def add_grouped_ordering(text: str) -> list[Candidate]:
    """A GEMM kernel indexed by tl.program_id(0) and (1) (M and N tiles, either way round) and
    without a GROUP constexpr -> the grouped remap at the top, GROUP_M=8 at the launch."""
    src = Source(text)
    kernels = {k.name: k for k in jit_kernels(src.tree)}
    for launch in launches(src.tree):
        fn = kernels.get(launch.kernel)
        blocks = _block_keywords(launch) if fn and _has_dot_loop(fn) else None
        if (blocks is None or fn.args.defaults or fn.args.vararg or fn.args.kwonlyargs
                or any(a.arg.upper().startswith("GROUP") for a in fn.args.args)):
            continue
        axes = _axis_blocks(fn, blocks)
        calls = _program_id_calls(fn)
        if sorted(axes.get(a) for a in (0, 1) if a in axes) != ["M", "N"] or -1 in calls or None in calls:
            continue
        if sum(isinstance(n, ast.Name) and n.id == launch.kernel for n in ast.walk(src.tree)) != 1:
            continue  # another launch would miss the new parameter
        return [_grouped(src, fn, launch, axes, calls)]
    return []


def _grouped(src: Source, fn: ast.FunctionDef, launch, axes: dict[int, str], calls) -> Candidate:
    axis_m = next(a for a in (0, 1) if axes[a] == "M")
    names = {k: _fresh(fn, k) for k in ("num_pid_m", "num_pid_n", "pid", "group_width", "first_pid_m",
                                        "group_rows", "pid_m", "pid_n")}
    group = _fresh(fn, "GROUP_M")
    first = fn.body[0]
    body_at = src._line_starts[first.lineno - 1]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        body_at = src._line_starts[first.end_lineno]
    remap = REMAP.format(i=" " * first.col_offset, am=axis_m, an=1 - axis_m, group=group,
                         m_count=names["num_pid_m"], n_count=names["num_pid_n"], pid=names["pid"],
                         width=names["group_width"], first=names["first_pid_m"], rows=names["group_rows"],
                         pid_m=names["pid_m"], pid_n=names["pid_n"])
    edits = [Edit(body_at, body_at, remap)]
    for axis in (0, 1):
        new = names["pid_m"] if axis == axis_m else names["pid_n"]
        edits += [src.replace(c, new) for c in calls.get(axis, [])]
    params = fn.args.args
    at = src.span(params[-1])[1]
    edits.append(Edit(at, at, f", {group}: tl.constexpr"))
    end = src.span(launch.call)[1] - 1
    edits.append(Edit(end, end, f", {group}={GROUP_M}"))
    return Candidate(apply(src.text, edits), f"{launch.kernel}: grouped program ordering, {group}={GROUP_M} "
                     "rows of tiles per group", {"kernel": launch.kernel, group: GROUP_M})
