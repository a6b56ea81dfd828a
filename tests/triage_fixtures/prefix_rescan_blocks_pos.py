# backend: ascend
import torch
import triton
import triton.language as tl


@triton.jit
def row_ranks_kernel(flags_ptr, out_ptr, E, T, BLOCK: tl.constexpr):
    for e in range(tl.program_id(0), E, tl.num_programs(0)):
        row = flags_ptr + e * T
        for t0 in range(0, T, BLOCK):
            before = tl.zeros([BLOCK], dtype=tl.int32)
            for p0 in range(0, t0, BLOCK):  # expect: common-prefix-rescan
                prev = p0 + tl.arange(0, BLOCK)
                before += tl.load(row + prev, mask=prev < T, other=0).to(tl.int32)
            offs = t0 + tl.arange(0, BLOCK)
            m = tl.load(row + offs, mask=offs < T, other=0).to(tl.int32)
            tl.store(out_ptr + e * T + offs, tl.sum(before, axis=0) + tl.cumsum(m, axis=0), mask=offs < T)


def run(flags):
    out = torch.empty(flags.shape, dtype=torch.int32, device=flags.device)
    row_ranks_kernel[(40,)](flags, out, flags.shape[0], flags.shape[1], BLOCK=2048)
    return out
