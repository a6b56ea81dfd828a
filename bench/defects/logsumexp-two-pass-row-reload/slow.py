"""Per-token log-sum-exp and z-loss of bf16 LM-head logits: one program per token, the row walked in
column chunks, first for its maximum and then again for the sum of exp(x - max)."""
import torch
import triton
import triton.language as tl

Z_LOSS_WEIGHT = 1e-4


@triton.jit
def lse_zloss_kernel(logits_ptr, lse_ptr, z_ptr, V, stride_row, z_weight, BLOCK: tl.constexpr):
    token = tl.program_id(0)
    row = logits_ptr + token.to(tl.int64) * stride_row
    offs = tl.arange(0, BLOCK)

    # pass 1: row maximum
    row_max = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + offs
        x = tl.load(row + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        row_max = tl.maximum(row_max, x)
    m = tl.max(row_max, axis=0)

    # pass 2: sum of exp(x - max)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + offs
        x = tl.load(row + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        acc += tl.exp(x - m)
    lse = m + tl.log(tl.sum(acc, axis=0))

    tl.store(lse_ptr + token, lse)
    tl.store(z_ptr + token, z_weight * lse * lse)


def run(logits: torch.Tensor) -> tuple:
    T, V = logits.shape
    lse = torch.empty((T,), dtype=torch.float32, device=logits.device)
    z = torch.empty((T,), dtype=torch.float32, device=logits.device)
    BLOCK = min(4096, triton.next_power_of_2(V))
    lse_zloss_kernel[(T,)](logits, lse, z, V, logits.stride(0), Z_LOSS_WEIGHT, BLOCK=BLOCK, num_warps=8)
    return lse, z
