"""SpectraST-style binned dot-product scores of a query batch against library spectra, on Ascend."""
import torch
import triton
import triton.language as tl

_NUM_PROGRAMS = 40


@triton.jit
def _spectral_dot(q_ptr, lib_ptr, out_ptr, Q, L, D,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_n = tl.cdiv(L, BN)
    for t in range(pid, tl.cdiv(Q, BM) * n_n, nprog):
        tm = t // n_n
        tn = t % n_n
        rm = tm * BM + tl.arange(0, BM)
        rn = tn * BN + tl.arange(0, BN)
        acc = tl.zeros([BM, BN], dtype=tl.float32)
        for k in range(0, D, BK):
            rk = k + tl.arange(0, BK)
            a = tl.load(q_ptr + rm[:, None] * D + rk[None, :],
                        mask=(rm[:, None] < Q) & (rk[None, :] < D), other=0.0)
            b = tl.load(lib_ptr + rn[:, None] * D + rk[None, :],
                        mask=(rn[:, None] < L) & (rk[None, :] < D), other=0.0)
            acc = tl.dot(a, tl.trans(b), acc)
        tl.store(out_ptr + rm[:, None] * L + rn[None, :], acc,
                 mask=(rm[:, None] < Q) & (rn[None, :] < L))


def run(query: torch.Tensor, library: torch.Tensor) -> torch.Tensor:
    Q, D = query.shape
    L = library.shape[0]
    out = torch.empty((Q, L), device=query.device, dtype=torch.float32)
    BM, BN, BK = 128, 128, 64
    grid = (min(_NUM_PROGRAMS, triton.cdiv(Q, BM) * triton.cdiv(L, BN)),)
    _spectral_dot[grid](query, library, out, Q, L, D, BM=BM, BN=BN, BK=BK)
    return out
