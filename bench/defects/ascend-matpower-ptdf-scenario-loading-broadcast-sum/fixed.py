"""DC line loading of S injection snapshots: |Pbus @ PTDF^T| / rate_a, in percent."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20
BM, BN, BK = 128, 128, 64


@triton.jit
def _ptdf_loading(pbus, ptdf, rate, out, S, NB, NL, stride_p, stride_h, stride_o,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_n = tl.cdiv(NL, BN)
    n_tiles = tl.cdiv(S, BM) * n_n
    for tile in range(pid, n_tiles, nprog):
        tm = tile // n_n
        tn = tile - tm * n_n
        rows = tm * BM + tl.arange(0, BM)
        lines = tn * BN + tl.arange(0, BN)
        rmask = rows < S
        lmask = lines < NL
        acc = tl.zeros([BM, BN], dtype=tl.float32)
        for k0 in range(0, NB, BK):
            ks = k0 + tl.arange(0, BK)
            kmask = ks < NB
            p = tl.load(pbus + rows[:, None] * stride_p + ks[None, :],
                        mask=rmask[:, None] & kmask[None, :], other=0.0)
            h = tl.load(ptdf + lines[:, None] * stride_h + ks[None, :],
                        mask=lmask[:, None] & kmask[None, :], other=0.0)
            acc = tl.dot(p, tl.trans(h), acc)
        r = tl.load(rate + lines, mask=lmask, other=1.0)
        y = 100.0 * tl.abs(acc) / r[None, :]
        tl.store(out + rows[:, None] * stride_o + lines[None, :], y,
                 mask=rmask[:, None] & lmask[None, :])


def run(pbus: torch.Tensor, ptdf: torch.Tensor, rate_a: torch.Tensor) -> torch.Tensor:
    S, NB = pbus.shape
    NL = ptdf.shape[0]
    out = torch.empty((S, NL), device=pbus.device, dtype=torch.float32)
    n_tiles = triton.cdiv(S, BM) * triton.cdiv(NL, BN)
    grid = (min(_AI_CORES, n_tiles),)
    _ptdf_loading[grid](pbus, ptdf, rate_a, out, S, NB, NL,
                        pbus.stride(0), ptdf.stride(0), out.stride(0), BM=BM, BN=BN, BK=BK)
    return out
