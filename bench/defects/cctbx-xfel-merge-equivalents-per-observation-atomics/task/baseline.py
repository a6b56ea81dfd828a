"""Merge symmetry-equivalent observations (sorted by unique index): <I> = sum w I / sum w, sigma = 1/sqrt(sum w), w = 1/sigma^2."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
BLOCK_U = 1024


@triton.jit
def _segment_add(h_a, w_a, wi_a, n_a, h_b, w_b, wi_b, n_b):
    """Segmented sum over sorted keys: the running totals restart where the unique index changes."""
    same = h_a == h_b
    return h_b, tl.where(same, w_a + w_b, w_b), tl.where(same, wi_a + wi_b, wi_b), tl.where(same, n_a + n_b, n_b)


@triton.jit
def _accumulate(intensity, sigma, index, sum_w, sum_wi, count, n_obs, n_unique, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n_obs
    i_obs = tl.load(intensity + offs, mask=ok, other=0.0)
    s = tl.load(sigma + offs, mask=ok, other=1.0)
    h = tl.load(index + offs, mask=ok, other=n_unique)
    w = 1.0 / (s * s)
    # Observations arrive sorted by unique index: total each run inside the block, one atomic per run.
    h_next = tl.load(index + offs + 1, mask=(offs + 1) < n_obs, other=n_unique)
    last = ok & ((h_next != h) | (tl.arange(0, BLOCK) == BLOCK - 1))
    _, w_run, wi_run, n_run = tl.associative_scan((h, w, w * i_obs, tl.full([BLOCK], 1, tl.int32)), 0, _segment_add)
    tl.atomic_add(sum_w + h, w_run, mask=last)
    tl.atomic_add(sum_wi + h, wi_run, mask=last)
    tl.atomic_add(count + h, n_run, mask=last)


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
    _accumulate[(triton.cdiv(n_obs, BLOCK),)](intensity, sigma, index, sum_w, sum_wi, count, n_obs, n_unique,
                                              BLOCK=BLOCK, num_warps=4)
    _finalize[(triton.cdiv(n_unique, BLOCK_U),)](sum_w, sum_wi, mean, sig, n_unique, BLOCK_U=BLOCK_U, num_warps=4)
    return mean, sig, count
