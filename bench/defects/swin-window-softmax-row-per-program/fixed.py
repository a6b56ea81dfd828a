"""Swin window attention softmax with the relative-position bias: 32 score rows per program."""
import torch
import triton
import triton.language as tl


@triton.jit
def window_softmax_kernel(s_ptr, bias_ptr, p_ptr, n_rows, H: tl.constexpr, N: tl.constexpr,
                          ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    mask = (rows < n_rows) & (cols < N)
    head_query = rows % (H * N)            # (head, query) of the row inside its window
    x = tl.load(s_ptr + rows.to(tl.int64) * N + cols, mask=mask, other=float("-inf")).to(tl.float32)
    x += tl.load(bias_ptr + head_query * N + cols, mask=mask, other=0.0).to(tl.float32)
    x = tl.exp(x - tl.max(x, axis=1)[:, None])
    p = x / tl.sum(x, axis=1)[:, None]
    tl.store(p_ptr + rows.to(tl.int64) * N + cols, p.to(p_ptr.dtype.element_ty), mask=mask)


def run(scores: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    BW, H, N, _ = scores.shape
    probs = torch.empty_like(scores)
    n_rows = BW * H * N
    rows = 32
    window_softmax_kernel[(triton.cdiv(n_rows, rows),)](scores, bias, probs, n_rows, H=H, N=N,
                                                          ROWS=rows, BLOCK_N=triton.next_power_of_2(N))
    return probs
