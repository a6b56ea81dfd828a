"""Reduction axis order: a 2-D tile loaded with its unit-stride index on axis 0 and consumed only
by reductions is loaded transposed (unit stride on the last axis, where Triton's layouts put
consecutive lanes) and every reduction's axis is flipped; the reduced values are the same."""

from __future__ import annotations

import ast

from diagnose.proposers import Candidate

from .source import Edit, Source, apply, dotted, int_value, jit_kernels

REDUCTIONS = ("tl.sum", "tl.max", "tl.min", "tl.argmax", "tl.argmin", "tl.reduce")


def _expansion_axis(node: ast.AST) -> int | None:
    """`v[:, None]` -> 0 (v runs along axis 0), `v[None, :]` -> 1; None for anything else."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2):
        return None
    a, b = node.slice.elts

    def full(s: ast.AST) -> bool:
        return isinstance(s, ast.Slice) and s.lower is None and s.upper is None and s.step is None

    def none(s: ast.AST) -> bool:
        return isinstance(s, ast.Constant) and s.value is None

    return 0 if full(a) and none(b) else 1 if none(a) and full(b) else None


def _expansions(node: ast.AST) -> list[ast.Subscript]:
    return [n for n in ast.walk(node) if _expansion_axis(n) is not None]


def _terms(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _terms(node.left) + _terms(node.right)
    return [node]


def _contiguous_on_axis0(pointer: ast.expr) -> bool:
    """The pointer sums a base, one bare `v[:, None]` (unit stride on axis 0) and strided
    `w[None, :] * stride` terms: the tile's contiguous index runs along axis 0."""
    bare, strided = [], []
    for term in _terms(pointer):
        axis = _expansion_axis(term)
        if axis is not None:
            bare.append(axis)
        elif isinstance(term, ast.BinOp) and isinstance(term.op, ast.Mult):
            axes = [_expansion_axis(s) for s in (term.left, term.right)]
            inner = [a for a in axes if a is not None]
            if len(inner) != 1 or len(_expansions(term)) != 1:
                return False
            strided.append(inner[0])
        elif _expansions(term):
            return False
    return bare == [0] and set(strided) == {1}


MODULES = {"tl", "triton", "math", "torch", "libdevice"}


def _free_names(node: ast.AST) -> set[str]:
    """Names read as values (not the module of `tl.float32` or `tl.exp`)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id not in MODULES}


def _reduction_axis(call: ast.Call) -> ast.expr | None:
    kw = next((k.value for k in call.keywords if k.arg == "axis"), None)
    return kw if kw is not None else (call.args[1] if len(call.args) > 1 else None)


def _tile_reductions(fn: ast.FunctionDef, tile: str) -> list[ast.Call] | None:
    """The reductions that consume the tile; None if it is used any other way (stored, broadcast
    with another tensor, given to tl.dot) or a reduction keeps its dims."""
    uses = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == tile and isinstance(n.ctx, ast.Load)]
    reductions = [c for c in ast.walk(fn) if isinstance(c, ast.Call) and dotted(c.func) in REDUCTIONS
                  and c.args and tile in _free_names(c.args[0])]
    covered = {id(n) for c in reductions for n in ast.walk(c.args[0])}
    if not reductions or any(id(u) not in covered for u in uses):
        return None
    for c in reductions:
        if (_free_names(c.args[0]) != {tile} or int_value(_reduction_axis(c)) not in (0, 1)
                or any(k.arg == "keep_dims" for k in c.keywords)):
            return None
    return reductions


def _swap(src: Source, node: ast.Subscript) -> Edit:
    return src.replace(node.slice, "None, :" if _expansion_axis(node) == 0 else ":, None")


def transpose_strided_tile(text: str) -> list[Candidate]:
    """`t = tl.load(base + r[None, :] * stride + c[:, None], ...)` reduced along axis k ->
    `tl.load(base + r[:, None] * stride + c[None, :], ...)` reduced along axis 1 - k."""
    src = Source(text)
    edits, tiles = [], []
    for fn in jit_kernels(src.tree):
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                    and isinstance(node.value, ast.Call) and dotted(node.value.func) == "tl.load"
                    and node.value.args and _contiguous_on_axis0(node.value.args[0])):
                continue
            tile = node.targets[0].id
            stores = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == tile and isinstance(n.ctx, ast.Store)]
            reductions = _tile_reductions(fn, tile) if len(stores) == 1 else None
            other = next((k.value for k in node.value.keywords if k.arg == "other"), None)
            if reductions is None or (other is not None and _expansions(other)):
                continue
            edits += [_swap(src, e) for e in _expansions(node.value)]
            for c in reductions:
                axis = _reduction_axis(c)
                edits.append(src.replace(axis, str(1 - int_value(axis))))
                edits += [_swap(src, e) for e in _expansions(c.args[0])]
            tiles.append(tile)
    if not edits:
        return []
    return [Candidate(apply(text, edits), f"load {', '.join(tiles)} with the unit-stride index on the last "
                      "axis and reduce along the flipped axis", {"tiles": tiles})]
