"""Baseline global gradient norm: per-core partials, then one finishing program."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 48  # Atlas A2 (910B)


@triton.jit
def grad_norm_partial_kernel(g_ptr, part_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(pid * BLOCK, N, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        g = tl.load(g_ptr + offs, mask=offs < N, other=0.0)
        acc += g * g
    tl.store(part_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def grad_norm_finish_kernel(part_ptr, out_ptr, P, BLOCK_P: tl.constexpr):
    offs = tl.arange(0, BLOCK_P)
    parts = tl.load(part_ptr + offs, mask=offs < P, other=0.0)
    tl.store(out_ptr, tl.sqrt(tl.sum(parts, axis=0)))


def run(grad: torch.Tensor) -> torch.Tensor:
    programs = NUM_VECTOR_CORES
    part = torch.empty(programs, dtype=torch.float32, device=grad.device)
    out = torch.empty((), dtype=torch.float32, device=grad.device)
    grad_norm_partial_kernel[(programs,)](grad, part, grad.numel(), BLOCK=8192)
    grad_norm_finish_kernel[(1,)](part, out, programs, BLOCK_P=triton.next_power_of_2(programs))
    return out
