"""NEMO global heat content / volume / mean temperature (dia_hsb, cdfheatc): land-sea masked 3-D sum on Ascend."""
import torch
import triton
import triton.language as tl

RHO0 = 1026.0
RCP = 3991.86795711963


@triton.jit
def _heat_content(T, e3t, tmask, e1e2t, out, ncol, nk, rho_cp, BLOCK: tl.constexpr):
    # a single program walks every water column, so the summation order is fixed (reproducible, like glob_sum)
    acc_tw = tl.zeros([BLOCK], dtype=tl.float32)
    acc_w = tl.zeros([BLOCK], dtype=tl.float32)
    for blk in range(0, tl.cdiv(ncol, BLOCK)):
        i = blk * BLOCK + tl.arange(0, BLOCK)
        m = i < ncol
        area = tl.load(e1e2t + i, mask=m, other=0.0)
        for k in range(0, nk):
            off = k * ncol + i
            w = tl.load(tmask + off, mask=m, other=0.0) * tl.load(e3t + off, mask=m, other=0.0) * area
            acc_tw += tl.load(T + off, mask=m, other=0.0) * w
            acc_w += w
    sum_tw = tl.sum(acc_tw, axis=0)
    vol = tl.sum(acc_w, axis=0)
    tl.store(out, rho_cp * sum_tw)
    tl.store(out + 1, vol)
    tl.store(out + 2, sum_tw / vol)


def run(T: torch.Tensor, e3t: torch.Tensor, tmask: torch.Tensor, e1e2t: torch.Tensor) -> torch.Tensor:
    nk, nj, ni = T.shape
    ncol = nj * ni
    out = torch.empty((3,), device=T.device, dtype=torch.float32)
    BLOCK = 1024
    _heat_content[(1,)](T, e3t, tmask, e1e2t, out, ncol, nk, RHO0 * RCP, BLOCK=BLOCK)
    return out
