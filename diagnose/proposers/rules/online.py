"""Online log-sum-exp: a kernel that holds a whole row in one tile and reduces it by max then
sum(exp(x - max)) becomes a loop over fixed chunks with a running max and a running sum rescaled
by exp(m_old - m_new), so a program holds one chunk; outputs that are element-wise functions of
the row and the reductions (softmax, log-softmax) are written by a second loop that reloads each
chunk. The launcher's block becomes the chunk, min(CHUNK, what it was)."""

from __future__ import annotations

import ast

from diagnose.proposers import Candidate
from diagnose.triage.detectors.rows import RowReduction, find_row_reduction

from .launchargs import bound_args
from .source import (
    Edit,
    Launch,
    Source,
    apply,
    grid_nodes,
    int_value,
    jit_kernels,
    keyword,
    launches,
)

# (chunk, num_warps): 8-16 fp32 values per thread, a measured search picks among them
CHUNKS = ((2048, 8), (4096, 8), (8192, 16))
NEG_INF = '-float("inf")'


def online_row_reduction(text: str) -> list[Candidate]:
    """The first whole-row log-sum-exp kernel of the file rewritten to chunks of 2048, 4096
    and 8192 (num_warps 8, 8, 16); [] when no kernel has that shape or a launch cannot be read."""
    src = Source(text)
    for fn in jit_kernels(src.tree):
        plain = len(fn.decorator_list) == 1 and _one_per_line(fn)  # autotune/heuristics own the launch
        shape = find_row_reduction(fn) if plain else None
        sites = _launch_sites(src, fn, shape.block) if shape else None
        if not sites:
            continue
        body = _body_edit(src, shape)
        out = []
        for chunk, warps in CHUNKS:
            edits = _launch_edits(src, sites, chunk, warps)
            if edits is not None:
                out.append(Candidate(apply(text, [body, *edits]),
                                     f"{fn.name}: online max/sum over chunks of {chunk} "
                                     f"({'two sweeps' if shape.outputs else 'one sweep'}), num_warps {warps}",
                                     {"kernel": fn.name, "chunk": chunk, "num_warps": warps,
                                      "sweeps": 2 if shape.outputs else 1}))
        return out
    return []


def _one_per_line(fn: ast.FunctionDef) -> bool:
    """Statements on lines of their own (`a = 1; b = 2` cannot be moved line by line)."""
    return all(a.end_lineno < b.lineno for a, b in zip(fn.body, fn.body[1:], strict=False))


# ---------------------------------------------------------------- the launcher

def _launch_sites(src: Source, fn: ast.FunctionDef, block: str) -> list[tuple[Launch, ast.expr]] | None:
    """Each launch of the kernel with the argument it passes for the block; None when a launch
    cannot be read or its grid depends on the block (then the block is not a whole row)."""
    found = []
    for launch in launches(src.tree):
        if launch.kernel != fn.name:
            continue
        args = bound_args(launch, fn)
        arg = args.get(block) if args else None
        if arg is None:
            return None
        if any(ast.dump(n) == ast.dump(arg) for g in grid_nodes(launch) for n in ast.walk(g)):
            return None
        found.append((launch, arg))
    return found or None


def _launch_edits(src: Source, sites: list[tuple[Launch, ast.expr]], chunk: int,
                  warps: int) -> list[Edit] | None:
    """The block set to min(chunk, block) and num_warps to `warps` at every launch; None when a
    literal block is no larger than the chunk (nothing to split)."""
    edits = []
    for launch, arg in sites:
        value = int_value(arg)
        if value is not None and value <= chunk:
            return None
        edits.append(src.replace(arg, str(chunk) if value is not None else f"min({chunk}, {src.segment(arg)})"))
        kw = keyword(launch.call, "num_warps")
        if kw is not None:
            edits.append(src.replace(kw.value, str(warps)))
        else:
            end = src.span(launch.call)[1] - 1  # before the closing parenthesis
            edits.append(Edit(end, end, f", num_warps={warps}"))
    return edits


# ---------------------------------------------------------------- the kernel body

class _Names:
    """Fresh names for the loop's variables; the reductions keep the kernel's own names where a
    statement binds one of them alone (`m = tl.max(x, axis=0)`)."""

    def __init__(self, shape: RowReduction) -> None:
        fn = shape.kernel
        self.taken = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)} | {a.arg for a in fn.args.args}
        self.start, self.new, self.ref = self.fresh("start"), self.fresh("m_new"), self.fresh("m_ref")
        self.bound: dict[int, str] = {}  # id of the statement whose binding the loop takes over
        self.max = self._own(shape, shape.max_call) or self.fresh("row_max")
        self.sum = self._own(shape, shape.sum_call) or self.fresh("row_sum")

    def fresh(self, base: str) -> str:
        name, i = base, 1
        while name in self.taken:
            name, i = f"{base}_{i}", i + 1
        self.taken.add(name)
        return name

    def _own(self, shape: RowReduction, call: ast.Call) -> str | None:
        for s in shape.after:
            if isinstance(s, ast.Assign) and s.value is call:
                name = s.targets[0].id  # type: ignore[attr-defined]
                binds = [n for n in ast.walk(shape.kernel) if isinstance(n, ast.Name)
                         and n.id == name and isinstance(n.ctx, ast.Store)]
                if len(binds) == 1 and name not in {a.arg for a in shape.kernel.args.args}:
                    self.bound[id(s)] = name
                    return name
        return None


def _body_edit(src: Source, shape: RowReduction) -> Edit:
    fn, names = shape.kernel, _Names(shape)
    indent = " " * fn.body[0].col_offset
    inner = indent + " " * (fn.body[0].col_offset - fn.col_offset)
    chunked = _arange_edits(src, shape, names.start)
    reduced = _reduction_edits(src, shape, names)
    lines = [_statement(src, fn, s, indent, []) for s in shape.prefix]
    lines += [f"{indent}{names.max} = {NEG_INF}  # running max of the row",
              f"{indent}{names.sum} = 0.0  # running sum of {shape.exp[3:]}(x - {names.max})",
              _sweep_header(src, shape, names, indent)]
    lines += [_statement(src, fn, s, inner, chunked) for s in shape.row]
    lines += _online_update(src, shape, names, inner, chunked)
    lines += [_statement(src, fn, s, indent, reduced) for s in shape.after if id(s) not in names.bound]
    if shape.outputs:
        lines.append(_sweep_header(src, shape, names, indent))
        lines += [_statement(src, fn, s, inner, chunked) for s in shape.row]
        lines += [_statement(src, fn, s, inner, chunked + reduced) for s in shape.outputs]
    start, _ = _lines_span(src, fn, fn.body[0])
    end = src._line_starts[fn.body[-1].end_lineno]
    return Edit(start, end, "\n".join(lines) + "\n")


def _sweep_header(src: Source, shape: RowReduction, names: _Names, indent: str) -> str:
    return f"{indent}for {names.start} in range(0, {ast.unparse(shape.bound)}, {shape.block}):"


def _online_update(src: Source, shape: RowReduction, names: _Names, inner: str,
                   chunked: list[Edit]) -> list[str]:
    """m_new = max(m, max(chunk)); s = s * g(m - m_new) + sum(g(chunk - m_new)); m = m_new.
    A chunk of only -inf (a masked prefix) keeps m at -inf: the exponent is then taken against 0."""
    row = _text(src, shape.max_call.args[0], chunked)
    operand = row if isinstance(shape.max_call.args[0], ast.Name | ast.Call | ast.Attribute) else f"({row})"
    m, s, new, ref = names.max, names.sum, names.new, names.ref
    return [f"{inner}{new} = tl.maximum({m}, tl.max({row}, axis=0).to(tl.float32))",
            f"{inner}{ref} = tl.where({new} == {NEG_INF}, 0.0, {new})",
            f"{inner}{s} = {s} * {_exp(shape, f'{m} - {ref}')} + tl.sum({_exp(shape, f'{operand} - {ref}')}, axis=0)",
            f"{inner}{m} = {new}"]


def _exp(shape: RowReduction, diff: str) -> str:
    if shape.scale is None:
        return f"{shape.exp}({diff})"
    scale = ast.unparse(shape.scale)
    scale = scale if isinstance(shape.scale, ast.Name | ast.Constant) else f"({scale})"
    return f"{shape.exp}(({diff}) * {scale})"


def _arange_edits(src: Source, shape: RowReduction, start: str) -> list[Edit]:
    """Each tl.arange(0, BLOCK) of the kernel offset to the chunk: start + tl.arange(0, BLOCK)."""
    whole = {id(s.value) for s in shape.kernel.body if isinstance(s, ast.Assign)}
    out = []
    for n in ast.walk(shape.kernel):
        if isinstance(n, ast.Call) and n.args and len(n.args) == 2 and isinstance(n.args[1], ast.Name) \
                and n.args[1].id == shape.block:
            offset = f"{start} + {src.segment(n)}"
            out.append(src.replace(n, offset if id(n) in whole else f"({offset})"))
    return out


def _reduction_edits(src: Source, shape: RowReduction, names: _Names) -> list[Edit]:
    """The reductions replaced by the loop's results (the max inside the sum goes with it)."""
    edits = [src.replace(shape.sum_call, names.sum)]
    if not any(n is shape.max_call for n in ast.walk(shape.sum_call)):
        edits.append(src.replace(shape.max_call, names.max))
    return edits


def _lines_span(src: Source, fn: ast.FunctionDef, stmt: ast.stmt) -> tuple[int, int]:
    """The statement's whole lines with the comment lines right above it."""
    lines = src.text.splitlines()
    first = stmt.lineno
    previous = max((s.end_lineno for s in fn.body if s.end_lineno < stmt.lineno), default=fn.lineno)
    while first - 1 > previous and lines[first - 2].strip().startswith("#"):
        first -= 1
    return src._line_starts[first - 1], src._line_starts[stmt.end_lineno]


def _statement(src: Source, fn: ast.FunctionDef, stmt: ast.stmt, indent: str, edits: list[Edit]) -> str:
    """The statement's text with the edits that fall inside it, re-indented to `indent`."""
    start, end = _lines_span(src, fn, stmt)
    text = src.text[start:end]
    for e in sorted((e for e in edits if start <= e.start and e.end <= end), key=lambda e: -e.start):
        text = text[:e.start - start] + e.text + text[e.end - start:]
    old = " " * stmt.col_offset
    return "\n".join(indent + (line[len(old):] if line.startswith(old) else line.lstrip()) if line.strip() else ""
                     for line in text.rstrip("\n").split("\n"))


def _text(src: Source, node: ast.AST, edits: list[Edit]) -> str:
    start, end = src.span(node)
    text = src.text[start:end]
    for e in sorted((e for e in edits if start <= e.start and e.end <= end), key=lambda e: -e.start):
        text = text[:e.start - start] + e.text + text[e.end - start:]
    return text
