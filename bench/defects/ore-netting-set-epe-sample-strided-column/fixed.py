"""Netting-set EPE profile: mean over Monte Carlo samples of the positive part of the NPV cube."""
import torch
import triton
import triton.language as tl


@triton.jit
def _epe_profile(cube, epe, n_samples, n_dates, BLOCK_S: tl.constexpr, BLOCK_D: tl.constexpr):
    nset = tl.program_id(0)
    dates = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    date_ok = dates < n_dates
    base = cube + nset * n_samples * n_dates
    acc = tl.zeros([BLOCK_S, BLOCK_D], dtype=tl.float32)
    for s0 in range(0, n_samples, BLOCK_S):
        samples = s0 + tl.arange(0, BLOCK_S)
        ok = (samples < n_samples)[:, None] & date_ok[None, :]
        npv = tl.load(base + samples[:, None] * n_dates + dates[None, :], mask=ok, other=0.0)
        acc += tl.maximum(npv, 0.0)
    tl.store(epe + nset * n_dates + dates, tl.sum(acc, axis=0) / n_samples, mask=date_ok)


def run(cube: torch.Tensor) -> torch.Tensor:
    n_sets, n_samples, n_dates = cube.shape
    epe = torch.empty(n_sets, n_dates, device=cube.device, dtype=torch.float32)
    BLOCK_S, BLOCK_D = 64, 32
    grid = (n_sets, triton.cdiv(n_dates, BLOCK_D))
    _epe_profile[grid](cube, epe, n_samples, n_dates, BLOCK_S=BLOCK_S, BLOCK_D=BLOCK_D, num_warps=4)
    return epe
