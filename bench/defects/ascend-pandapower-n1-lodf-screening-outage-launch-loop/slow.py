"""N-1 LODF screening: worst post-outage loading and overload count of every outage case."""
import torch
import triton
import triton.language as tl

BL = 1024


@triton.jit
def _screen_outage(lodf_t, outage, pf0, rate, worst, n_over, k, NL, stride_k, BL: tl.constexpr):
    c = tl.load(outage + k)
    fc = tl.load(pf0 + c)
    best = tl.zeros([BL], dtype=tl.float32)
    cnt = tl.zeros([BL], dtype=tl.int32)
    for l0 in range(0, NL, BL):
        ls = l0 + tl.arange(0, BL)
        m = ls < NL
        d = tl.load(lodf_t + k * stride_k + ls, mask=m, other=0.0)
        f = tl.load(pf0 + ls, mask=m, other=0.0)
        r = tl.load(rate + ls, mask=m, other=1.0)
        loading = 100.0 * tl.abs(f + d * fc) / r
        best = tl.maximum(best, loading)
        cnt += (loading > 100.0).to(tl.int32)
    tl.store(worst + k, tl.max(best, axis=0))
    tl.store(n_over + k, tl.sum(cnt, axis=0))


def run(lodf_t: torch.Tensor, outage: torch.Tensor, pf0: torch.Tensor, rate_a: torch.Tensor) -> tuple:
    n_out, NL = lodf_t.shape
    worst = torch.empty(n_out, device=lodf_t.device, dtype=torch.float32)
    n_over = torch.empty(n_out, device=lodf_t.device, dtype=torch.int32)
    for k in range(n_out):
        _screen_outage[(1,)](lodf_t, outage, pf0, rate_a, worst, n_over, k, NL, lodf_t.stride(0), BL=BL)
    return worst, n_over
