"""Swin window attention softmax with the relative-position bias: one program per score row."""
import torch
import triton
import triton.language as tl


@triton.jit
def window_softmax_kernel(s_ptr, bias_ptr, p_ptr, H: tl.constexpr, N: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    head_query = row % (H * N)             # (head, query) of the row inside its window
    x = tl.load(s_ptr + row.to(tl.int64) * N + cols, mask=mask, other=float("-inf")).to(tl.float32)
    x += tl.load(bias_ptr + head_query * N + cols, mask=mask, other=0.0).to(tl.float32)
    x = tl.exp(x - tl.max(x, axis=0))
    p = x / tl.sum(x, axis=0)
    tl.store(p_ptr + row.to(tl.int64) * N + cols, p.to(p_ptr.dtype.element_ty), mask=mask)


def run(scores: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    BW, H, N, _ = scores.shape
    probs = torch.empty_like(scores)
    window_softmax_kernel[(BW * H * N,)](scores, bias, probs, H=H, N=N, BLOCK_N=triton.next_power_of_2(N))
    return probs
