"""Jagged mean pooling for triton-ascend: one program per vector core, each looping over its
sequences and summing each one in [BLOCK_L, D] tiles."""
import torch
import triton
import triton.language as tl

NUM_AIV_CORES = 40  # Atlas 800T A2 (910B3): 20 AI cores x 2 vector units


@triton.jit
def _sequence_sum(values_ptr, start, length, n_iters, cols, cmask, D,
                  BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    rows = tl.arange(0, BLOCK_L)
    acc = tl.zeros([BLOCK_L, BLOCK_D], dtype=tl.float32)
    for it in range(0, n_iters):
        r = it * BLOCK_L + rows
        m = (r[:, None] < length) & cmask[None, :]
        acc += tl.load(values_ptr + (start + r)[:, None] * D + cols[None, :], mask=m, other=0.0)
    return tl.sum(acc, axis=0)


@triton.jit
def jagged_mean_kernel(values_ptr, offsets_ptr, out_ptr, B, D, max_len,
                       BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_D)
    cmask = cols < D
    n_iters = tl.cdiv(max_len, BLOCK_L)
    for b in range(pid, B, nprog):
        start = tl.load(offsets_ptr + b)
        length = tl.load(offsets_ptr + b + 1) - start
        total = _sequence_sum(values_ptr, start, length, n_iters, cols, cmask, D, BLOCK_L, BLOCK_D)
        mean = total / tl.maximum(length, 1).to(tl.float32)
        tl.store(out_ptr + b * D + cols, mean, mask=cmask)


def run(values: torch.Tensor, offsets: torch.Tensor, max_len: int) -> torch.Tensor:
    B = offsets.numel() - 1
    D = values.shape[1]
    values = values.contiguous()
    out = torch.empty(B, D, dtype=torch.float32, device=values.device)
    block_d = triton.next_power_of_2(D)
    block_l = max(1, min(64, 8192 // block_d))
    grid = (min(NUM_AIV_CORES, B),)
    jagged_mean_kernel[grid](values, offsets, out, B, D, max_len, BLOCK_L=block_l, BLOCK_D=block_d)
    return out
