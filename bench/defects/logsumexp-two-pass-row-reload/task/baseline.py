"""Per-token log-sum-exp and z-loss of bf16 LM-head logits: one program per token, one pass over the
row carrying the running max and the rescaled running sum of exp (online log-sum-exp)."""
import torch
import triton
import triton.language as tl

Z_LOSS_WEIGHT = 1e-4


@triton.jit
def lse_zloss_kernel(logits_ptr, lse_ptr, z_ptr, V, stride_row, z_weight, BLOCK: tl.constexpr):
    token = tl.program_id(0)
    row = logits_ptr + token.to(tl.int64) * stride_row
    offs = tl.arange(0, BLOCK)

    run_max = float("-inf")
    run_sum = 0.0
    for start in range(0, V, BLOCK):
        cols = start + offs
        x = tl.load(row + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        new_max = tl.maximum(run_max, tl.max(x, axis=0))
        run_sum = run_sum * tl.exp(run_max - new_max) + tl.sum(tl.exp(x - new_max), axis=0)
        run_max = new_max
    lse = run_max + tl.log(run_sum)

    tl.store(lse_ptr + token, lse)
    tl.store(z_ptr + token, z_weight * lse * lse)


def run(logits: torch.Tensor) -> tuple:
    T, V = logits.shape
    lse = torch.empty((T,), dtype=torch.float32, device=logits.device)
    z = torch.empty((T,), dtype=torch.float32, device=logits.device)
    BLOCK = min(4096, triton.next_power_of_2(V))
    lse_zloss_kernel[(T,)](logits, lse, z, V, logits.stride(0), Z_LOSS_WEIGHT, BLOCK=BLOCK, num_warps=8)
    return lse, z
