"""torch.dot as a two-stage reduction: per-program partial sums, then one program adds them."""
import torch
import triton
import triton.language as tl


@triton.jit
def dot_partials_kernel(a_ptr, b_ptr, partial_ptr, n, BLOCK: tl.constexpr, BLOCKS_PER_PROGRAM: tl.constexpr):
    start = tl.program_id(0).to(tl.int64) * BLOCK * BLOCKS_PER_PROGRAM
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in tl.static_range(BLOCKS_PER_PROGRAM):
        offs = start + i * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        acc += tl.load(a_ptr + offs, mask=m, other=0.0) * tl.load(b_ptr + offs, mask=m, other=0.0)
    tl.store(partial_ptr + tl.program_id(0), tl.sum(acc, axis=0))


@triton.jit
def sum_partials_kernel(partial_ptr, out_ptr, n_partials, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_partials, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(partial_ptr + offs, mask=offs < n_partials, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0))


def run(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    n = a.numel()
    block, per_program = 4096, 8
    n_partials = triton.cdiv(n, block * per_program)
    partials = torch.empty(n_partials, dtype=torch.float32, device=a.device)
    out = torch.empty((), dtype=a.dtype, device=a.device)
    dot_partials_kernel[(n_partials,)](a, b, partials, n, BLOCK=block, BLOCKS_PER_PROGRAM=per_program, num_warps=8)
    sum_partials_kernel[(1,)](partials, out, n_partials, BLOCK=1024)
    return out
