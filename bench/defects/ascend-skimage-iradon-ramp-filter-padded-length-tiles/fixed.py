"""Ramp filtering of parallel-beam sinograms (scikit-image iradon) as a tiled matmul on the cube unit."""
import torch
import triton
import triton.language as tl

_CUBE_CORES = 20


@triton.jit
def _ramp_filter_fwd(sino, filt, out, R, N, stride_f,
                     BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_m = tl.cdiv(R, BM)
    n_n = tl.cdiv(N, BN)
    for tile in range(pid, n_m * n_n, nprog):
        tm = tile // n_n
        tn = tile - tm * n_n
        rows = tm * BM + tl.arange(0, BM)
        cols = tn * BN + tl.arange(0, BN)
        rmask = rows < R
        cmask = cols < N
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k0 in range(0, N, BK):
            ks = k0 + tl.arange(0, BK)
            kmask = ks < N
            p = tl.load(sino + rows[:, None] * N + ks[None, :],
                        mask=rmask[:, None] & kmask[None, :], other=0.0)
            h = tl.load(filt + ks[:, None] * stride_f + cols[None, :],
                        mask=kmask[:, None] & cmask[None, :], other=0.0)
            acc += tl.dot(p, h)
        tl.store(out + rows[:, None] * N + cols[None, :], acc, mask=rmask[:, None] & cmask[None, :])


def run(sino: torch.Tensor, filt: torch.Tensor) -> torch.Tensor:
    S, A, N = sino.shape
    R = S * A
    out = torch.empty((S, A, N), device=sino.device, dtype=sino.dtype)
    BM, BN, BK = 128, 128, 64
    grid = (min(_CUBE_CORES, triton.cdiv(R, BM) * triton.cdiv(N, BN)),)
    _ramp_filter_fwd[grid](sino, filt, out, R, N, filt.stride(0), BM=BM, BN=BN, BK=BK)
    return out
