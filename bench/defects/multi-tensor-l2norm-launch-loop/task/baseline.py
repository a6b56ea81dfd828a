"""Per-parameter L2 norms in two launches for all tensors: grid (tensor, split) partial sums of squares, then one program per tensor."""
import torch
import triton
import triton.language as tl


@triton.jit
def partial_sumsq_kernel(flat_ptr, offsets_ptr, partial_ptr, SPLIT: tl.constexpr, BLOCK: tl.constexpr):
    t = tl.program_id(0)
    s = tl.program_id(1)
    start = tl.load(offsets_ptr + t)
    end = tl.load(offsets_ptr + t + 1)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for chunk in range(start + s * BLOCK, end, SPLIT * BLOCK):
        offs = chunk + tl.arange(0, BLOCK)
        x = tl.load(flat_ptr + offs, mask=offs < end, other=0.0)
        acc += x * x
    tl.store(partial_ptr + t * SPLIT + s, tl.sum(acc, axis=0))


@triton.jit
def finish_kernel(partial_ptr, out_ptr, SPLIT: tl.constexpr):
    t = tl.program_id(0)
    p = tl.load(partial_ptr + t * SPLIT + tl.arange(0, SPLIT))
    tl.store(out_ptr + t, tl.sqrt(tl.sum(p, axis=0)))


def run(flat: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    T = offsets.numel() - 1
    split = 64
    partial = torch.empty((T, split), dtype=torch.float32, device=flat.device)
    out = torch.empty(T, dtype=torch.float32, device=flat.device)
    partial_sumsq_kernel[(T, split)](flat, offsets, partial, SPLIT=split, BLOCK=1024)
    finish_kernel[(T,)](partial, out, SPLIT=split)
    return out
