"""WeNet GlobalCMVN: (feats - mean) * istd over [B, T, F] log-mel features."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BR = 64


@triton.jit
def _global_cmvn(feats, mean, istd, out, n_rows, F, BR: tl.constexpr, BF: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BF)
    cmask = cols < F
    for blk in range(pid, tl.cdiv(n_rows, BR), nprog):
        rows = blk * BR + tl.arange(0, BR)
        mask = (rows < n_rows)[:, None] & cmask[None, :]
        offs = rows[:, None] * F + cols[None, :]
        x = tl.load(feats + offs, mask=mask, other=0.0)
        mu = tl.load(mean + cols, mask=cmask, other=0.0)
        s = tl.load(istd + cols, mask=cmask, other=1.0)
        tl.store(out + offs, (x - mu[None, :]) * s[None, :], mask=mask)


def run(feats: torch.Tensor, mean: torch.Tensor, istd: torch.Tensor) -> torch.Tensor:
    B, T, F = feats.shape
    out = torch.empty((B, T, F), device=feats.device, dtype=feats.dtype)
    n_rows = B * T
    grid = (min(_VECTOR_CORES, triton.cdiv(n_rows, BR)),)
    _global_cmvn[grid](feats, mean, istd, out, n_rows, F, BR=BR, BF=triton.next_power_of_2(F))
    return out
