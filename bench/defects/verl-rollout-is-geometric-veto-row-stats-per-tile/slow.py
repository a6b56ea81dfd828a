"""verl rollout IS weights, geometric level with truncation and veto, a 2-D grid of response tiles."""
import math

import torch
import triton
import triton.language as tl

UPPER = tl.constexpr(1.001)
LOG_VETO = tl.constexpr(math.log(1e-4))
BOUND = tl.constexpr(20.0)


@triton.jit
def _rollout_is(old, rollout, mask, weights, new_mask, T, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    tile = tl.program_id(1)
    base = row * stride
    total = tl.zeros([BLOCK], dtype=tl.float32)
    count = tl.zeros([BLOCK], dtype=tl.float32)
    bad = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(0, T, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        inb = cols < T
        valid = tl.load(mask + base + cols, mask=inb, other=0) != 0
        lr = tl.load(old + base + cols, mask=inb, other=0.0) - tl.load(rollout + base + cols, mask=inb, other=0.0)
        total += tl.where(valid, lr, 0.0)
        count += valid.to(tl.float32)
        bad = tl.maximum(bad, (valid & (lr < LOG_VETO)).to(tl.int32))
    mean = tl.sum(total, axis=0) / (tl.sum(count, axis=0) + 1e-8)
    w = tl.minimum(tl.exp(tl.minimum(tl.maximum(mean, -BOUND), BOUND)), UPPER)
    keep = tl.where(tl.max(bad, axis=0) == 0, 1.0, 0.0)
    cols = tile * BLOCK + tl.arange(0, BLOCK)
    inb = cols < T
    valid = tl.load(mask + base + cols, mask=inb, other=0) != 0
    tl.store(weights + base + cols, tl.where(valid, w, 0.0), mask=inb)
    tl.store(new_mask + base + cols, tl.where(valid, keep, 0.0), mask=inb)


def run(old_log_prob: torch.Tensor, rollout_log_prob: torch.Tensor, response_mask: torch.Tensor):
    N, T = old_log_prob.shape
    weights = torch.empty((N, T), device=old_log_prob.device, dtype=torch.float32)
    new_mask = torch.empty_like(weights)
    BLOCK = 1024
    _rollout_is[(N, triton.cdiv(T, BLOCK))](old_log_prob, rollout_log_prob, response_mask, weights, new_mask, T,
                                           old_log_prob.stride(0), BLOCK=BLOCK, num_warps=4)
    return weights, new_mask
