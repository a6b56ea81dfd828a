"""PaDiM anomaly map: Mahalanobis distance of each patch embedding to its position's Gaussian."""
import torch
import triton
import triton.language as tl


@triton.jit
def _mahalanobis_map(emb, mean, inv_cov, out, B, HW, C,
                     BLOCK_I: tl.constexpr, BLOCK_C: tl.constexpr):
    p = tl.program_id(0)
    b = tl.program_id(1)
    chans = tl.arange(0, BLOCK_C)
    chan_ok = chans < C
    x_row = emb + b * (HW * C) + p * C
    mu_row = mean + p * C
    delta = tl.where(chan_ok, tl.load(x_row + chans, mask=chan_ok, other=0.0)
                     - tl.load(mu_row + chans, mask=chan_ok, other=0.0), 0.0)
    prec = inv_cov + p * C * C
    d2 = 0.0
    for i0 in range(0, C, BLOCK_I):
        rows = i0 + tl.arange(0, BLOCK_I)
        row_ok = rows < C
        p_rows = tl.load(prec + rows[:, None] * C + chans[None, :],
                         mask=row_ok[:, None] & chan_ok[None, :], other=0.0)
        z = tl.sum(p_rows * delta[None, :], axis=1)
        delta_i = tl.where(row_ok, tl.load(x_row + rows, mask=row_ok, other=0.0)
                           - tl.load(mu_row + rows, mask=row_ok, other=0.0), 0.0)
        d2 += tl.sum(z * delta_i, axis=0)
    tl.store(out + b * HW + p, tl.sqrt(tl.maximum(d2, 0.0)))


def run(emb: torch.Tensor, mean: torch.Tensor, inv_cov: torch.Tensor) -> torch.Tensor:
    B, HW, C = emb.shape
    out = torch.empty((B, HW), device=emb.device, dtype=torch.float32)
    BLOCK_C = triton.next_power_of_2(C)
    _mahalanobis_map[(HW, B)](emb, mean, inv_cov, out, B, HW, C,
                              BLOCK_I=16, BLOCK_C=BLOCK_C, num_warps=4)
    return out
