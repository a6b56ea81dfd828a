"""Tier 1: a loop-free kernel that reduces a tile of at most one element per thread is one short
row per program (more rows per program is the fix); the same tile mapped element by element is a
block that can simply grow; a row walked in a loop is neither."""

from __future__ import annotations

from diagnose.triage import triage

ROW = '''
import torch, triton, triton.language as tl


@triton.jit
def head_kernel(x_ptr, y_ptr, D, BD: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BD)
    m = cols < D
    x = tl.load(x_ptr + row * D + cols, mask=m, other=0.0).to(tl.float32)
{body}


def run(x):
    T, D = x.shape
    y = torch.empty_like(x)
    BD = triton.next_power_of_2(D)
    head_kernel[(T,)](x, y, D, BD=BD)
    return y
'''
REDUCE = "    tl.store(y_ptr + row * D + cols, x / tl.max(tl.abs(x), axis=0), mask=m)"
MAP = "    tl.store(y_ptr + row * D + cols, x * 2.0, mask=m)"


def _families(source: str, D: int = 128) -> dict[str, float]:
    resolved = {"head_kernel": {"BD": D}}
    out: dict[str, float] = {}
    for f in triage(source, "k.py", "cuda", resolved=resolved).findings:
        out[f.rewrite_family] = max(out.get(f.rewrite_family, 0.0), f.confidence)
    return out


def test_a_reduced_short_row_per_program_is_multi_row_not_a_bigger_block() -> None:
    found = _families(ROW.format(body=REDUCE))
    assert found.get("multi-row-programs", 0) >= 0.65
    assert "block-size-tuning" not in found


def test_the_same_tile_mapped_elementwise_is_a_block_to_grow() -> None:
    found = _families(ROW.format(body=MAP))
    assert found.get("block-size-tuning", 0) >= 0.6
    assert "multi-row-programs" not in found


def test_long_rows_or_a_loop_over_the_row_are_not_short_rows() -> None:
    assert "multi-row-programs" not in _families(ROW.format(body=REDUCE), D=1024)
    # a loop that reads the row again (a walk over it): the tile is not the program's whole work
    looped = ROW.format(body=REDUCE).replace(
        "    x = tl.load(", "    for _ in range(1):\n        x = tl.load(")
    assert "multi-row-programs" not in _families(looped)
