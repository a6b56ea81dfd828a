"""Merge symmetry-equivalent observations (sorted by unique index): <I> = sum w I / sum w, sigma = 1/sqrt(sum w), w = 1/sigma^2."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
BLOCK_U = 1024


@triton.jit
def _accumulate(intensity, sigma, index, sum_w, sum_wi, count, n_obs, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n_obs
    i_obs = tl.load(intensity + offs, mask=ok, other=0.0)
    s = tl.load(sigma + offs, mask=ok, other=1.0)
    h = tl.load(index + offs, mask=ok, other=0)
    w = 1.0 / (s * s)
    tl.atomic_add(sum_w + h, w, mask=ok)
    tl.atomic_add(sum_wi + h, w * i_obs, mask=ok)
    tl.atomic_add(count + h, tl.full([BLOCK], 1, tl.int32), mask=ok)


@triton.jit
def _finalize(sum_w, sum_wi, mean, sig, n_unique, BLOCK_U: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_U + tl.arange(0, BLOCK_U)
    ok = offs < n_unique
    sw = tl.load(sum_w + offs, mask=ok, other=0.0)
    swi = tl.load(sum_wi + offs, mask=ok, other=0.0)
    has = sw > 0.0
    safe = tl.where(has, sw, 1.0)
    tl.store(mean + offs, tl.where(has, swi / safe, 0.0), mask=ok)
    tl.store(sig + offs, tl.where(has, 1.0 / tl.sqrt(safe), 0.0), mask=ok)


def run(intensity, sigma, index, n_unique) -> tuple:
    n_obs = intensity.shape[0]
    dev = intensity.device
    sum_w = torch.zeros(n_unique, device=dev, dtype=torch.float32)
    sum_wi = torch.zeros(n_unique, device=dev, dtype=torch.float32)
    count = torch.zeros(n_unique, device=dev, dtype=torch.int32)
    mean = torch.empty(n_unique, device=dev, dtype=torch.float32)
    sig = torch.empty(n_unique, device=dev, dtype=torch.float32)
    _accumulate[(triton.cdiv(n_obs, BLOCK),)](intensity, sigma, index, sum_w, sum_wi, count, n_obs,
                                              BLOCK=BLOCK, num_warps=4)
    _finalize[(triton.cdiv(n_unique, BLOCK_U),)](sum_w, sum_wi, mean, sig, n_unique, BLOCK_U=BLOCK_U, num_warps=4)
    return mean, sig, count
