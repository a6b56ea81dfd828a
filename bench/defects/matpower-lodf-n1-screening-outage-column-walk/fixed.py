"""N-1 screening with LODFs: worst post-outage loading per outaged branch, blocks of outages per program."""
import torch
import triton
import triton.language as tl


@triton.jit
def _worst_post_outage(flow, lodf, rate, worst, L, stride_l, BLOCK_L: tl.constexpr, BLOCK_K: tl.constexpr):
    ks = tl.program_id(0) * BLOCK_K + tl.arange(0, BLOCK_K)
    k_ok = ks < L
    f_out = tl.load(flow + ks, mask=k_ok, other=0.0)
    acc = tl.zeros([BLOCK_L, BLOCK_K], dtype=tl.float32)
    for start in range(0, L, BLOCK_L):
        ls = start + tl.arange(0, BLOCK_L)
        l_ok = ls < L
        f_mon = tl.load(flow + ls, mask=l_ok, other=0.0)
        inv_rate = 1.0 / tl.load(rate + ls, mask=l_ok, other=1.0)
        d = tl.load(lodf + ls[:, None] * stride_l + ks[None, :], mask=l_ok[:, None] & k_ok[None, :], other=0.0)
        post = tl.abs(f_mon[:, None] + d * f_out[None, :])
        acc = tl.maximum(acc, post * inv_rate[:, None])
    tl.store(worst + ks, tl.max(acc, axis=0), mask=k_ok)


def run(flow: torch.Tensor, lodf: torch.Tensor, rate: torch.Tensor) -> torch.Tensor:
    L = flow.shape[0]
    worst = torch.empty(L, device=flow.device, dtype=torch.float32)
    BLOCK_L, BLOCK_K = 128, 32
    grid = (triton.cdiv(L, BLOCK_K),)
    _worst_post_outage[grid](flow, lodf, rate, worst, L, lodf.stride(0), BLOCK_L=BLOCK_L, BLOCK_K=BLOCK_K,
                             num_warps=4)
    return worst
