"""N-1 screening with LODFs: worst post-outage loading per outaged branch, one program per outage."""
import torch
import triton
import triton.language as tl


@triton.jit
def _worst_post_outage(flow, lodf, rate, worst, L, stride_l, BLOCK_L: tl.constexpr):
    k = tl.program_id(0)
    f_out = tl.load(flow + k)
    acc = tl.zeros([BLOCK_L], dtype=tl.float32)
    for start in range(0, L, BLOCK_L):
        ls = start + tl.arange(0, BLOCK_L)
        l_ok = ls < L
        f_mon = tl.load(flow + ls, mask=l_ok, other=0.0)
        inv_rate = 1.0 / tl.load(rate + ls, mask=l_ok, other=1.0)
        d = tl.load(lodf + ls * stride_l + k, mask=l_ok, other=0.0)
        post = tl.abs(f_mon + d * f_out)
        acc = tl.maximum(acc, post * inv_rate)
    tl.store(worst + k, tl.max(acc, axis=0))


def run(flow: torch.Tensor, lodf: torch.Tensor, rate: torch.Tensor) -> torch.Tensor:
    L = flow.shape[0]
    worst = torch.empty(L, device=flow.device, dtype=torch.float32)
    BLOCK_L = min(1024, triton.next_power_of_2(L))
    _worst_post_outage[(L,)](flow, lodf, rate, worst, L, lodf.stride(0), BLOCK_L=BLOCK_L, num_warps=4)
    return worst
