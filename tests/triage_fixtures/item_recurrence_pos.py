# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def string_hash(chars, offsets, out):
    s = tl.program_id(0)
    start = tl.load(offsets + s)
    n = tl.load(offsets + s + 1) - start
    h = tl.full([], 2166136261, tl.uint32)
    for j in range(0, n):  # expect: common-item-recurrence
        c = tl.load(chars + start + j).to(tl.uint32)
        h = (h ^ c) * 16777619
    tl.store(out + s, h)


@triton.jit
def run_lengths(flags, out, T):
    row = tl.program_id(0)
    run = 0
    longest = 0
    for t in range(0, T):  # expect: common-item-recurrence
        f = tl.load(flags + row * T + t)
        run = tl.where(f != 0, run + 1, 0)
        longest = tl.maximum(longest, run)
    tl.store(out + row, longest)


def run(chars, offsets, flags):
    out = torch.empty(offsets.numel() - 1, dtype=torch.uint32, device=chars.device)
    string_hash[(offsets.numel() - 1,)](chars, offsets, out)
    longest = torch.empty(flags.shape[0], dtype=torch.int32, device=flags.device)
    run_lengths[(flags.shape[0],)](flags, longest, flags.shape[1])
    return out, longest
