"""Divisibility and contiguity hints: let Triton's specialisation see multiples of 16 again, and
tell the axis analysis that a block of offsets is contiguous and aligned."""

from __future__ import annotations

import ast

from diagnose.proposers import Candidate

from .source import Source, apply, dotted, jit_kernels


def drop_do_not_specialize(text: str) -> list[Candidate]:
    """`@triton.jit(do_not_specialize=[...])` -> `@triton.jit`: arguments get their divisibility
    facts back (one binary per specialisation instead of one for all)."""
    src = Source(text)
    edits, names = [], []
    for fn in jit_kernels(src.tree):
        for dec in fn.decorator_list:
            if isinstance(dec, ast.Call) and any(k.arg == "do_not_specialize" for k in dec.keywords):
                rest = [k for k in dec.keywords if k.arg != "do_not_specialize"]
                kept = ", ".join(src.segment(k) for k in rest)
                edits.append(src.replace(dec, f"{src.segment(dec.func)}({kept})" if kept
                                         else src.segment(dec.func)))
                names.append(fn.name)
    if not edits:
        return []
    return [Candidate(apply(text, edits), f"specialise every argument of {', '.join(names)} again "
                      "(drop do_not_specialize)", {"kernels": names})]


def _block_offsets(value: ast.expr) -> ast.expr | None:
    """`pid * BLOCK + tl.arange(0, BLOCK)` (either order) -> the BLOCK expression."""
    if not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add)):
        return None
    for a, b in ((value.left, value.right), (value.right, value.left)):
        if (isinstance(b, ast.Call) and dotted(b.func) == "tl.arange" and len(b.args) == 2
                and isinstance(b.args[0], ast.Constant) and b.args[0].value == 0
                and isinstance(a, ast.BinOp) and isinstance(a.op, ast.Mult)
                and ast.dump(b.args[1]) in (ast.dump(a.left), ast.dump(a.right))):
            return b.args[1]
    return None


def add_contiguity_hints(text: str) -> list[Candidate]:
    """`offs = pid * BLOCK + tl.arange(0, BLOCK)` -> wrapped in tl.max_contiguous(tl.multiple_of(
    ..., BLOCK), BLOCK), so loads through it can be vectorised when the base is aligned."""
    src = Source(text)
    edits, names = [], []
    for fn in jit_kernels(src.tree):
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                block = _block_offsets(node.value)
                if block is not None:
                    b = src.segment(block)
                    edits.append(src.replace(node.value, f"tl.max_contiguous(tl.multiple_of("
                                             f"{src.segment(node.value)}, {b}), {b})"))
                    names.append(src.segment(node.targets[0]))
    if not edits:
        return []
    return [Candidate(apply(text, edits), f"contiguity and divisibility hints on {', '.join(names)}",
                      {"offsets": names})]
