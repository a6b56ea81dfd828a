"""GMRES classical Gram-Schmidt projections h = V w (PETSc VecMDot), basis stored as V[m, n]."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _mdot_partials(v, w, part, n, m, stride_v, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    j = tl.arange(0, BM)
    jmask = j < m
    acc = tl.zeros([BM], dtype=tl.float32)
    for blk in range(pid, tl.cdiv(n, BN), nprog):
        i = blk * BN + tl.arange(0, BN)
        imask = i < n
        wv = tl.load(w + i, mask=imask, other=0.0)
        vt = tl.load(v + i[:, None] + j[None, :] * stride_v, mask=imask[:, None] & jmask[None, :], other=0.0)
        acc += tl.sum(vt * wv[:, None], axis=0)
    tl.store(part + pid * BM + j, acc)


@triton.jit
def _mdot_finish(part, h, nparts, m, BP: tl.constexpr, BM: tl.constexpr):
    p = tl.arange(0, BP)
    j = tl.arange(0, BM)
    x = tl.load(part + p[:, None] * BM + j[None, :], mask=(p < nparts)[:, None], other=0.0)
    tl.store(h + j, tl.sum(x, axis=0), mask=j < m)


def run(v: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    m, n = v.shape
    BM = triton.next_power_of_2(m)
    BN = 256
    nprog = min(_VECTOR_CORES, triton.cdiv(n, BN))
    part = torch.empty((nprog, BM), device=v.device, dtype=torch.float32)
    h = torch.empty((m,), device=v.device, dtype=v.dtype)
    _mdot_partials[(nprog,)](v, w, part, n, m, v.stride(0), BM=BM, BN=BN)
    _mdot_finish[(1,)](part, h, nprog, m, BP=triton.next_power_of_2(nprog), BM=BM)
    return h
