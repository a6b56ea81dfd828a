"""PPO critic value head: values = hidden @ w per token, fp32 accumulation."""
import torch
import triton
import triton.language as tl


@triton.jit
def _value_head(hidden, weight, values, S, H, stride_s, BLOCK_M: tl.constexpr, BLOCK_H: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < S
    acc = tl.zeros([BLOCK_M, BLOCK_H], dtype=tl.float32)
    for start in range(0, H, BLOCK_H):
        cols = start + tl.arange(0, BLOCK_H)
        col_ok = cols < H
        x = tl.load(hidden + rows[:, None] * stride_s + cols[None, :],
                    mask=row_ok[:, None] & col_ok[None, :], other=0.0)
        w = tl.load(weight + cols, mask=col_ok, other=0.0)
        acc += x.to(tl.float32) * w.to(tl.float32)[None, :]
    tl.store(values + rows, tl.sum(acc, axis=1), mask=row_ok)


def run(hidden: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    S, H = hidden.shape
    values = torch.empty(S, device=hidden.device, dtype=torch.float32)
    BLOCK_M = 16
    _value_head[(triton.cdiv(S, BLOCK_M),)](hidden, weight, values, S, H, hidden.stride(0),
                                           BLOCK_M=BLOCK_M, BLOCK_H=256, num_warps=4)
    return values
