"""Netting-set EPE profile: mean over Monte Carlo samples of the positive part of the NPV cube."""
import torch
import triton
import triton.language as tl


@triton.jit
def _epe_at_date(cube, epe, n_samples, n_dates, BLOCK_S: tl.constexpr):
    pid = tl.program_id(0)
    nset = pid // n_dates
    date = pid % n_dates
    column = cube + nset * n_samples * n_dates + date
    acc = tl.zeros([BLOCK_S], dtype=tl.float32)
    for s0 in range(0, n_samples, BLOCK_S):
        samples = s0 + tl.arange(0, BLOCK_S)
        npv = tl.load(column + samples * n_dates, mask=samples < n_samples, other=0.0)
        acc += tl.maximum(npv, 0.0)
    tl.store(epe + pid, tl.sum(acc, axis=0) / n_samples)


def run(cube: torch.Tensor) -> torch.Tensor:
    n_sets, n_samples, n_dates = cube.shape
    epe = torch.empty(n_sets, n_dates, device=cube.device, dtype=torch.float32)
    BLOCK_S = 1024
    _epe_at_date[(n_sets * n_dates,)](cube, epe, n_samples, n_dates, BLOCK_S=BLOCK_S, num_warps=4)
    return epe
