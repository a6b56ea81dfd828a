"""AMCL pf_update_sensor: weights *= likelihood, normalised by their sum, plus (w_avg, n_eff)."""
import torch
import triton
import triton.language as tl

BLOCK = 4096


@triton.jit
def _weight_normalize(w, lik, w_out, stats, N, BLOCK: tl.constexpr):
    # the normaliser is a sum over the whole set, so one program owns the set
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc_sq = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < N
        v = tl.load(w + offs, mask=mask, other=0.0) * tl.load(lik + offs, mask=mask, other=0.0)
        acc += v
        acc_sq += v * v
    total = tl.sum(acc, axis=0)
    total_sq = tl.sum(acc_sq, axis=0)
    inv = 1.0 / total
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < N
        v = tl.load(w + offs, mask=mask, other=0.0) * tl.load(lik + offs, mask=mask, other=0.0)
        tl.store(w_out + offs, v * inv, mask=mask)
    tl.store(stats, total / N)
    tl.store(stats + 1, total * total / total_sq)


def run(weights: torch.Tensor, likelihood: torch.Tensor) -> tuple:
    n = weights.numel()
    w_out = torch.empty_like(weights)
    stats = torch.empty(2, device=weights.device, dtype=weights.dtype)
    _weight_normalize[(1,)](weights, likelihood, w_out, stats, n, BLOCK=BLOCK)
    return w_out, stats
