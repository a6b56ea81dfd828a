# backend: ascend
# absent: common-prefix-rescan
import torch
import triton
import triton.language as tl


@triton.jit
def row_ranks_kernel(flags_ptr, out_ptr, E, T, BLOCK: tl.constexpr):
    for e in range(tl.program_id(0), E, tl.num_programs(0)):
        row = flags_ptr + e * T
        prefix = 0
        for t0 in range(0, T, BLOCK):
            offs = t0 + tl.arange(0, BLOCK)
            m = tl.load(row + offs, mask=offs < T, other=0).to(tl.int32)
            tl.store(out_ptr + e * T + offs, prefix + tl.cumsum(m, axis=0), mask=offs < T)
            prefix += tl.sum(m, axis=0)


@triton.jit
def tiles_kernel(x_ptr, out_ptr, T, BLOCK: tl.constexpr, INNER: tl.constexpr):
    # an inner loop of a fixed trip count: no block is read twice
    for t0 in range(0, T, BLOCK):
        acc = tl.zeros([INNER], dtype=tl.float32)
        for j in range(0, BLOCK, INNER):
            acc += tl.load(x_ptr + t0 + j + tl.arange(0, INNER))
        tl.store(out_ptr + t0 // BLOCK * INNER + tl.arange(0, INNER), acc)


def run(flags):
    out = torch.empty(flags.shape, dtype=torch.int32, device=flags.device)
    row_ranks_kernel[(40,)](flags, out, flags.shape[0], flags.shape[1], BLOCK=2048)
    return out
