"""NEMO global heat content / volume / mean temperature (dia_hsb, cdfheatc): land-sea masked 3-D sum on Ascend."""
import torch
import triton
import triton.language as tl

RHO0 = 1026.0
RCP = 3991.86795711963
_VECTOR_CORES = 40


@triton.jit
def _heat_content(T, e3t, tmask, e1e2t, partial, ncol, nk, BLOCK: tl.constexpr):
    # every vector core takes a fixed, strided share of the water columns (same order on every run)
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    acc_tw = tl.zeros([BLOCK], dtype=tl.float32)
    acc_w = tl.zeros([BLOCK], dtype=tl.float32)
    for blk in range(pid, tl.cdiv(ncol, BLOCK), nprog):
        i = blk * BLOCK + tl.arange(0, BLOCK)
        m = i < ncol
        area = tl.load(e1e2t + i, mask=m, other=0.0)
        for k in range(0, nk):
            off = k * ncol + i
            w = tl.load(tmask + off, mask=m, other=0.0) * tl.load(e3t + off, mask=m, other=0.0) * area
            acc_tw += tl.load(T + off, mask=m, other=0.0) * w
            acc_w += w
    tl.store(partial + pid, tl.sum(acc_tw, axis=0))
    tl.store(partial + nprog + pid, tl.sum(acc_w, axis=0))


@triton.jit
def _heat_content_final(partial, out, nprog, rho_cp, BP: tl.constexpr):
    p = tl.arange(0, BP)
    m = p < nprog
    sum_tw = tl.sum(tl.load(partial + p, mask=m, other=0.0), axis=0)
    vol = tl.sum(tl.load(partial + nprog + p, mask=m, other=0.0), axis=0)
    tl.store(out, rho_cp * sum_tw)
    tl.store(out + 1, vol)
    tl.store(out + 2, sum_tw / vol)


def run(T: torch.Tensor, e3t: torch.Tensor, tmask: torch.Tensor, e1e2t: torch.Tensor) -> torch.Tensor:
    nk, nj, ni = T.shape
    ncol = nj * ni
    out = torch.empty((3,), device=T.device, dtype=torch.float32)
    BLOCK = 1024
    nprog = min(_VECTOR_CORES, triton.cdiv(ncol, BLOCK))
    partial = torch.empty((2 * nprog,), device=T.device, dtype=torch.float32)
    _heat_content[(nprog,)](T, e3t, tmask, e1e2t, partial, ncol, nk, BLOCK=BLOCK)
    _heat_content_final[(1,)](partial, out, nprog, RHO0 * RCP, BP=triton.next_power_of_2(nprog))
    return out
