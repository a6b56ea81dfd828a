"""Anomaly Transformer association discrepancy: symmetric KL between series attention and the Gaussian prior."""
import torch
import triton
import triton.language as tl


@triton.jit
def _assoc_discrepancy(series, sigma, out, B, L, n_blk,
                       E: tl.constexpr, H: tl.constexpr, ROWS: tl.constexpr, BLOCK_L: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_L)
    colf = cols.to(tl.float32)
    for tile in range(pid, B * n_blk, nprog):
        b = tile // n_blk
        rows = (tile - b * n_blk) * ROWS + tl.arange(0, ROWS)
        rmask = rows < L
        m2 = rmask[:, None] & (cols[None, :] < L)
        d = colf[None, :] - rows.to(tl.float32)[:, None]
        half_d2 = -0.5 * d * d
        acc = tl.zeros([ROWS], dtype=tl.float32)
        for eh in range(E * H):
            e = eh // H
            plane = (e * B + b) * H + (eh - e * H)
            s = tl.load(series + plane * L * L + rows[:, None] * L + cols[None, :], mask=m2, other=0.0)
            sg = tl.load(sigma + plane * L + rows, mask=rmask, other=1.0)
            g = tl.exp(half_d2 / (sg * sg)[:, None])
            g = tl.where(colf[None, :] < L, g, 0.0)
            p = g / tl.sum(g, axis=1)[:, None]
            acc += tl.sum((s - p) * (tl.log(s + 1e-4) - tl.log(p + 1e-4)), axis=1)
        tl.store(out + b * L + rows, acc / H, mask=rmask)


def run(series: torch.Tensor, sigma: torch.Tensor) -> torch.Tensor:
    E, B, H, L, _ = series.shape
    out = torch.empty((B, L), device=series.device, dtype=torch.float32)
    ROWS = 16
    n_blk = triton.cdiv(L, ROWS)
    grid = (min(40, B * n_blk),)
    _assoc_discrepancy[grid](series, sigma, out, B, L, n_blk,
                             E=E, H=H, ROWS=ROWS, BLOCK_L=triton.next_power_of_2(L))
    return out
