"""Session 25's general triage readings (issue 12), each from a round-32 development miss and
checked against tier 1's findings on every development case: a lane index computed from loaded
data is a gather, not a stride; a liveness mask narrowed in a chain of `&` is narrowed. (The
item-against-shared-tile reading has its own fixtures: tests/triage_fixtures/item_shared_*.py.)"""

from __future__ import annotations

import textwrap

from diagnose.triage import triage

HEADER = "import torch, triton, triton.language as tl\n"

MARCH = HEADER + textwrap.dedent('''
    @triton.jit
    def march(points, field, out, N, R, STEPS: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        live = offs < N
        x = tl.load(points + offs, mask=live, other=0.0)
        t = tl.zeros([BLOCK], tl.float32)
        for _ in range(STEPS):
            ix = tl.minimum((x + t).to(tl.int32), R - 2)
            iy = tl.minimum((x * t).to(tl.int32), R - 2)
            h = tl.load(field + iy * R + ix) + tl.load(field + iy * R + ix + 1)
            t = tl.where(live, t + h, t)
            live = live & (h > 0.01) & (t < 10.0)
        tl.store(out + offs, t, mask=offs < N)

    def run(points, field):
        out = torch.empty_like(points)
        march[(triton.cdiv(points.numel(), 128),)](points, field, out, points.numel(), field.shape[0],
                                                   STEPS=64, BLOCK=128)
        return out
''')

STRIDED = HEADER + textwrap.dedent('''
    @triton.jit
    def column(x, out, N, S, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out + offs, tl.load(x + offs * S, mask=offs < N, other=0.0), mask=offs < N)

    def run(x):
        out = torch.empty(x.shape[0], device=x.device)
        column[(triton.cdiv(x.shape[0], 256),)](x, out, x.shape[0], x.stride(0), BLOCK=256)
        return out
''')


def _cards(source: str) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for f in triage(source, "k.py", "cuda").findings:
        found.setdefault(f.card_id, []).append(f.location["line"] if f.location else 0)
    return found


def test_a_mask_narrowed_in_a_chain_of_ands_is_a_retired_lanes_loop():
    cards = _cards(MARCH)
    loop = next(i for i, line in enumerate(MARCH.splitlines(), 1) if "for _ in range(STEPS)" in line)
    assert cards.get("common-retired-lanes-loop") == [loop]


def test_a_lane_index_computed_from_loaded_data_is_a_gather_not_a_stride():
    assert "cuda-strided-fast-axis" not in _cards(MARCH)  # `iy * R`: iy comes from loaded x
    assert "cuda-strided-fast-axis" in _cards(STRIDED)  # `offs * S`: a real stride between lanes
