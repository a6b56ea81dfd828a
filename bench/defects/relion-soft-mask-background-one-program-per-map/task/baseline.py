"""RELION softMaskOutsideMap on a stack of maps: raised-cosine background weight, weighted background mean, fill."""
import torch
import triton
import triton.language as tl

ROWS = 8
MAX_SPLIT = 128


@triton.jit
def _background_sums(maps, partials, B, n_rows, centre, radius, width,
                     ROWS: tl.constexpr, BX: tl.constexpr, SPLIT: tl.constexpr):
    # SPLIT programs per map, each summing c*v and c over a slab of rows
    m = tl.program_id(0)
    part = tl.program_id(1)
    rows_per = tl.cdiv(tl.cdiv(n_rows, SPLIT), ROWS) * ROWS
    row_lo = part * rows_per
    row_hi = tl.minimum(row_lo + rows_per, n_rows)
    base = maps + m * n_rows * B
    x = tl.arange(0, BX)
    dx = (x - centre).to(tl.float32)
    outer = radius + width
    phase = 3.141592653589793 / width
    acc_cv = tl.zeros([ROWS, BX], dtype=tl.float32)
    acc_c = tl.zeros([ROWS, BX], dtype=tl.float32)
    for r0 in range(row_lo, row_hi, ROWS):
        rows = r0 + tl.arange(0, ROWS)
        z = rows // B
        dy = (rows - z * B - centre).to(tl.float32)
        dz = (z - centre).to(tl.float32)
        r = tl.sqrt((dz * dz + dy * dy)[:, None] + (dx * dx)[None, :])
        ok = (rows < row_hi)[:, None] & (x < B)[None, :]
        v = tl.load(base + rows[:, None] * B + x[None, :], mask=ok, other=0.0)
        c = tl.where(r > outer, 1.0, 0.5 + 0.5 * tl.cos((outer - r) * phase))
        c = tl.where((r < radius) | ~ok, 0.0, c)
        acc_cv += c * v
        acc_c += c
    tl.store(partials + 2 * (m * SPLIT + part), tl.sum(acc_cv))
    tl.store(partials + 2 * (m * SPLIT + part) + 1, tl.sum(acc_c))


@triton.jit
def _apply_mask(maps, partials, out, B, n_rows, centre, radius, width,
                ROWS: tl.constexpr, BX: tl.constexpr, SPLIT: tl.constexpr):
    m = tl.program_id(1)
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    x = tl.arange(0, BX)
    j = tl.arange(0, SPLIT)
    bg = tl.sum(tl.load(partials + 2 * (m * SPLIT + j))) / tl.sum(tl.load(partials + 2 * (m * SPLIT + j) + 1))
    outer = radius + width
    phase = 3.141592653589793 / width
    z = rows // B
    dy = (rows - z * B - centre).to(tl.float32)
    dz = (z - centre).to(tl.float32)
    dx = (x - centre).to(tl.float32)
    r = tl.sqrt((dz * dz + dy * dy)[:, None] + (dx * dx)[None, :])
    ok = (rows < n_rows)[:, None] & (x < B)[None, :]
    offs = m * n_rows * B + rows[:, None] * B + x[None, :]
    v = tl.load(maps + offs, mask=ok, other=0.0)
    c = tl.where(r > outer, 1.0, 0.5 + 0.5 * tl.cos((outer - r) * phase))
    c = tl.where(r < radius, 0.0, c)
    tl.store(out + offs, (1.0 - c) * v + c * bg, mask=ok)


def run(maps: torch.Tensor, radius: float, width: float) -> torch.Tensor:
    k, b = maps.shape[0], maps.shape[1]
    n_rows = b * b
    bx = triton.next_power_of_2(b)
    split = min(MAX_SPLIT, triton.next_power_of_2(triton.cdiv(n_rows, ROWS)))
    partials = torch.empty((k, split, 2), device=maps.device, dtype=torch.float32)
    out = torch.empty_like(maps)
    _background_sums[(k, split)](maps, partials, b, n_rows, b // 2, radius, width,
                                 ROWS=ROWS, BX=bx, SPLIT=split, num_warps=4)
    _apply_mask[(triton.cdiv(n_rows, ROWS), k)](maps, partials, out, b, n_rows, b // 2, radius, width,
                                                ROWS=ROWS, BX=bx, SPLIT=split, num_warps=4)
    return out
