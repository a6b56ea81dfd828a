"""Classes from session 17's development misses: a loop over every tile of a range that keeps
only the positions on one side of a scalar bound its range does not use (a sliding window's
start inside a loop from 0; a sequence's own length inside a loop to the batch's longest)."""

from __future__ import annotations

import pytest

from diagnose.triage import triage
from tests.test_diagnosis_general import PERSISTENT_ROWS, TASK_ROWS, _tier3_alone, make_task

CARD = "common-causal-full-scan"

WINDOW = '''
import triton
import triton.language as tl


@triton.jit
def window_decode(q_ptr, k_ptr, v_ptr, lens_ptr, o_ptr, window, D: tl.constexpr, T: tl.constexpr):
    b = tl.program_id(0)
    n = tl.load(lens_ptr + b)
    offs_t = tl.arange(0, T)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + b * D + offs_d)
    lo = tl.maximum(n - window, 0)
    acc = tl.zeros([16, D], dtype=tl.float32)
    for start in range({range}):
        pos = start + offs_t
        k = tl.load(k_ptr + pos[:, None] * D + offs_d[None, :], mask=(pos < n)[:, None], other=0.0)
        s = tl.dot(tl.broadcast_to(q[None, :], [16, D]), tl.trans(k))
        s = tl.where({cond}, s, -float("inf"))
        p = tl.exp(s - tl.max(s, 1)[:, None])
        acc += tl.dot(p.to(k.dtype), k)
    tl.store(o_ptr + b * D + offs_d, tl.sum(acc, 0))
'''


def _cards(source: str) -> dict[str, object]:
    return {f.card_id: f for f in triage(source, "k.py", "cuda").findings}


def _window(range_: str, cond: str) -> str:
    return WINDOW.format(range=range_, cond=cond)


def test_a_window_start_the_loop_does_not_use_is_masked_tiles() -> None:
    found = _cards(_window("0, n, T", "(pos < n)[None, :] & (pos >= lo)[None, :]"))
    assert CARD in found
    assert found[CARD].rewrite_family == "skip-masked-tiles"  # type: ignore[attr-defined]
    assert "pos >= lo" in found[CARD].message  # type: ignore[attr-defined]
    # written bound-first, the same cut
    assert CARD in _cards(_window("0, n, T", "(lo <= pos)[None, :]"))


def test_a_loop_that_starts_at_the_window_or_checks_its_own_tail_is_not_flagged() -> None:
    # the fix: the loop starts at the window's first tile, the mask only trims its edge
    assert CARD not in _cards(_window("lo // T * T, n, T", "(pos < n)[None, :] & (pos >= lo)[None, :]"))
    # a tail check against the loop's own stop, in elements or in tiles
    assert CARD not in _cards(_window("0, n, T", "(pos < n)[None, :]"))
    tiles = _window("0, tl.cdiv(n, T)", "(pos < n)[None, :]").replace("pos = start + offs_t",
                                                                        "pos = start * T + offs_t")
    assert CARD not in _cards(tiles)
    # a program's split of the keys: past the length is only the last split's tail
    split = _window("b * 1024, b * 1024 + 1024, T", "(pos < n)[None, :]")
    assert CARD not in _cards(split)
    # a comparison of data (a distance within a cutoff), not of a position
    assert CARD not in _cards(_window("0, n, T", "(s < lo)"))
    # an `or` keeps both sides: no tile is wholly dropped by one bound
    assert CARD not in _cards(_window("0, n, T", "(pos >= lo)[None, :] | (pos < 4)[None, :]"))


def test_a_loop_to_the_longest_sequence_masking_to_its_own_length_is_masked_tiles() -> None:
    source = '''
import triton
import triton.language as tl


@triton.jit
def segment_mean(x_ptr, off_ptr, out_ptr, max_len, D: tl.constexpr, R: tl.constexpr):
    s = tl.program_id(0)
    begin = tl.load(off_ptr + s)
    length = tl.load(off_ptr + s + 1) - begin
    rows = tl.arange(0, R)
    cols = tl.arange(0, D)
    acc = tl.zeros([D], dtype=tl.float32)
    for r0 in range(0, max_len, R):
        r = r0 + rows
        x = tl.load(x_ptr + (begin + r)[:, None] * D + cols[None, :])
        acc += tl.sum(tl.where((r < length)[:, None], x, 0.0), 0)
    tl.store(out_ptr + s * D + cols, acc / tl.maximum(length, 1))
'''
    assert CARD in _cards(source)
    assert CARD not in _cards(source.replace("range(0, max_len, R)", "range(0, length, R)"))


@pytest.mark.slow
def test_a_grid_filling_more_than_half_the_sms_is_not_an_underfill_symptom(tmp_path) -> None:
    """128 programs on 132 SMs: the 4 idle SMs bound a split's win at 3%; 66 programs (half)
    still count, as a grid that leaves half the machine idle does."""
    found = {}
    for label, programs in (("most", "- 4"), ("half", "// 2")):
        task = make_task(tmp_path, label, TASK_ROWS, PERSISTENT_ROWS.replace("PROGRAMS", programs))
        found[label] = [f for f in _tier3_alone(task).findings if f.evidence.get("symptom") == "grid-underfill"]
    assert not found["most"]
    assert found["half"] and "66 programs" in found["half"][0].message
