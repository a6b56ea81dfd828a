"""RELION softMaskOutsideMap on a stack of maps: raised-cosine background weight, weighted background mean, fill."""
import torch
import triton
import triton.language as tl

ROWS = 8


@triton.jit
def _background_sums(maps, sums, B, n_rows, centre, radius, width,
                     ROWS: tl.constexpr, BX: tl.constexpr):
    # one program per map: sum c*v and sum c over the whole volume
    m = tl.program_id(0)
    base = maps + m * n_rows * B
    x = tl.arange(0, BX)
    dx = (x - centre).to(tl.float32)
    outer = radius + width
    phase = 3.141592653589793 / width
    acc_cv = tl.zeros([ROWS, BX], dtype=tl.float32)
    acc_c = tl.zeros([ROWS, BX], dtype=tl.float32)
    for r0 in range(0, n_rows, ROWS):
        rows = r0 + tl.arange(0, ROWS)
        z = rows // B
        dy = (rows - z * B - centre).to(tl.float32)
        dz = (z - centre).to(tl.float32)
        r = tl.sqrt((dz * dz + dy * dy)[:, None] + (dx * dx)[None, :])
        ok = (rows < n_rows)[:, None] & (x < B)[None, :]
        v = tl.load(base + rows[:, None] * B + x[None, :], mask=ok, other=0.0)
        c = tl.where(r > outer, 1.0, 0.5 + 0.5 * tl.cos((outer - r) * phase))
        c = tl.where((r < radius) | ~ok, 0.0, c)
        acc_cv += c * v
        acc_c += c
    tl.store(sums + 2 * m, tl.sum(acc_cv))
    tl.store(sums + 2 * m + 1, tl.sum(acc_c))


@triton.jit
def _apply_mask(maps, sums, out, B, n_rows, centre, radius, width,
                ROWS: tl.constexpr, BX: tl.constexpr):
    m = tl.program_id(1)
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    x = tl.arange(0, BX)
    bg = tl.load(sums + 2 * m) / tl.load(sums + 2 * m + 1)
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
    sums = torch.empty((k, 2), device=maps.device, dtype=torch.float32)
    out = torch.empty_like(maps)
    _background_sums[(k,)](maps, sums, b, n_rows, b // 2, radius, width, ROWS=ROWS, BX=bx, num_warps=4)
    _apply_mask[(triton.cdiv(n_rows, ROWS), k)](maps, sums, out, b, n_rows, b // 2, radius, width,
                                                ROWS=ROWS, BX=bx, num_warps=4)
    return out
