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


CELL_LIST = HEADER + textwrap.dedent('''
    @triton.jit
    def cell_pairs(pos, start, counts, ncell, cutoff2, BI: tl.constexpr, BJ: tl.constexpr):
        ii = tl.arange(0, BI)
        jj = tl.arange(0, BJ)
        for c in range(tl.program_id(0), ncell, tl.num_programs(0)):
            lo = tl.load(start + c)
            hi = tl.load(start + c + 1)
            for i0 in range(lo, hi, BI):
                gi = i0 + ii
                xi = tl.load(pos + gi, mask=gi < hi, other=0.0)
                found = tl.zeros([BI], dtype=tl.int32)
                for j0 in range(lo, hi, BJ):
                    gj = j0 + jj
                    live = gj < hi
                    d = xi[:, None] - tl.load(pos + gj, mask=live, other=0.0)[None, :]
                    keep = (d * d < cutoff2) & live[None, :] & (gi[:, None] != gj[None, :])
                    found += tl.sum(tl.where(keep, 1, 0), axis=1)
                tl.store(counts + gi, found, mask=gi < hi)

    def run(pos, start, cutoff):
        counts = torch.empty(pos.numel(), device=pos.device, dtype=torch.int32)
        cell_pairs[(40,)](pos, start, counts, start.numel() - 1, cutoff * cutoff, BI=16, BJ=128)
        return counts
''')

PREFIX = HEADER + textwrap.dedent('''
    @triton.jit
    def rescan(x, out, T, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        for t in range(0, T):
            acc = tl.zeros([BLOCK], tl.float32)
            for p in range(0, t):
                acc += tl.load(x + p * BLOCK + offs)
            tl.store(out + t * BLOCK + offs, acc + tl.load(x + t * BLOCK + offs))

    def run(x):
        out = torch.empty_like(x)
        rescan[(1,)](x, out, x.shape[0], BLOCK=x.shape[1])
        return out
''')


def test_an_integer_compare_inside_a_combined_mask_is_read_on_ascend():
    found = {f.card_id for f in triage(CELL_LIST, "k.py", "ascend").findings}
    assert "ascend-int-compare-where" in found  # `gi != gj` and `gj < hi` inside `keep`
    floats = CELL_LIST.replace("live[None, :] & (gi[:, None] != gj[None, :])", "(d > 0.0)")
    assert "ascend-int-compare-where" not in {f.card_id for f in triage(floats, "k.py", "ascend").findings}


def test_a_segment_that_moves_with_the_enclosing_loop_is_no_prefix_rescan():
    assert "common-prefix-rescan" not in {f.card_id for f in triage(CELL_LIST, "k.py", "ascend").findings}
    assert "common-prefix-rescan" in {f.card_id for f in triage(PREFIX, "k.py", "cuda").findings}


def test_index_tiles_broadcast_to_rank_three_are_addresses_not_a_product(tmp_path):
    from diagnose.profiling.trace import _address_tables, _addressing

    source = HEADER + textwrap.dedent('''
        @triton.jit
        def _rotate(x_ptr, out_ptr, offs, mask, c):
            tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask, other=0.0) * c, mask=mask)

        @triton.jit
        def rope(q, out, cosv, S, H, BT: tl.constexpr, BH: tl.constexpr, BD: tl.constexpr):
            t = tl.program_id(0) * BT + tl.arange(0, BT)
            h = tl.arange(0, BH)
            d = tl.arange(0, BD)
            offs = t[:, None, None] * (H * BD) + h[None, :, None] * BD + d[None, None, :]
            mask = (t[:, None, None] < S) & (h[None, :, None] < H)
            c = tl.load(cosv + t[:, None] * BD + d[None, :])[:, None, :]
            _rotate(q, out, offs, mask, c)
            prod = tl.load(q + offs, mask=mask, other=0.0) * c
            tl.store(out + t, tl.sum(tl.sum(prod, axis=2), axis=1))
    ''')
    path = tmp_path / "rope.py"
    path.write_text(source)
    lines = source.splitlines()
    at = {name: next(i for i, line in enumerate(lines, 1) if line.strip().startswith(f"{name} ="))
          for name in ("offs", "mask", "prod")}
    tables = _address_tables(str(path))
    assert _addressing(tables, at["offs"]) and _addressing(tables, at["mask"])
    assert not _addressing(tables, at["prod"])  # a multiply whose product is summed
