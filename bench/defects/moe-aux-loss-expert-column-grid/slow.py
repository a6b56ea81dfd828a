"""Mean router probability per expert: one program per block of experts, looping over every token."""
import torch
import triton
import triton.language as tl


@triton.jit
def expert_mean_kernel(probs_ptr, out_ptr, T, E, BLOCK_T: tl.constexpr, BLOCK_E: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_E + tl.arange(0, BLOCK_E)
    col_ok = cols < E
    acc = tl.zeros((BLOCK_T, BLOCK_E), dtype=tl.float32)
    for start in range(0, T, BLOCK_T):
        rows = start + tl.arange(0, BLOCK_T)
        acc += tl.load(probs_ptr + rows[:, None] * E + cols[None, :],
                       mask=(rows[:, None] < T) & col_ok[None, :], other=0.0)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0) / T, mask=col_ok)


def run(probs: torch.Tensor) -> torch.Tensor:
    T, E = probs.shape
    out = torch.empty(E, dtype=torch.float32, device=probs.device)
    BLOCK_E = 64
    expert_mean_kernel[(triton.cdiv(E, BLOCK_E),)](probs, out, T, E, BLOCK_T=128, BLOCK_E=BLOCK_E, num_warps=4)
    return out
