"""PaDiM anomaly map: Mahalanobis distance of each patch embedding to its position's Gaussian."""
import torch
import triton
import triton.language as tl


@triton.jit
def _mahalanobis_map(emb, mean, inv_cov, out, B, HW, C,
                     BLOCK_B: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_J: tl.constexpr):
    p = tl.program_id(0)
    imgs = tl.program_id(1) * BLOCK_B + tl.arange(0, BLOCK_B)
    chans = tl.arange(0, BLOCK_C)
    img_ok = imgs < B
    emb_rows = emb + imgs[:, None] * (HW * C) + p * C
    ok = img_ok[:, None] & (chans[None, :] < C)
    mu = tl.load(mean + p * C + chans, mask=chans < C, other=0.0)
    delta = tl.where(ok, tl.load(emb_rows + chans[None, :], mask=ok, other=0.0) - mu[None, :], 0.0)
    prec = inv_cov + p * C * C
    d2 = tl.zeros([BLOCK_B], dtype=tl.float32)
    for j0 in range(0, C, BLOCK_J):
        cols = j0 + tl.arange(0, BLOCK_J)
        col_ok = cols < C
        p_tile = tl.load(prec + chans[:, None] * C + cols[None, :],
                         mask=(chans[:, None] < C) & col_ok[None, :], other=0.0)
        z = tl.dot(delta, p_tile)
        okj = img_ok[:, None] & col_ok[None, :]
        mu_j = tl.load(mean + p * C + cols, mask=col_ok, other=0.0)
        delta_j = tl.where(okj, tl.load(emb_rows + cols[None, :], mask=okj, other=0.0) - mu_j[None, :], 0.0)
        d2 += tl.sum(z * delta_j, axis=1)
    tl.store(out + imgs * HW + p, tl.sqrt(tl.maximum(d2, 0.0)), mask=img_ok)


def run(emb: torch.Tensor, mean: torch.Tensor, inv_cov: torch.Tensor) -> torch.Tensor:
    B, HW, C = emb.shape
    out = torch.empty((B, HW), device=emb.device, dtype=torch.float32)
    BLOCK_B = min(64, max(16, triton.next_power_of_2(B)))
    BLOCK_C = max(16, triton.next_power_of_2(C))
    grid = (HW, triton.cdiv(B, BLOCK_B))
    _mahalanobis_map[grid](emb, mean, inv_cov, out, B, HW, C,
                           BLOCK_B=BLOCK_B, BLOCK_C=BLOCK_C, BLOCK_J=32, num_warps=4)
    return out
