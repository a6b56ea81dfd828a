"""Qwen3 q_norm through the model's generic RMSNorm kernel (one program per row) on the [T * H, D] view."""
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, w_ptr, y_ptr, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row.to(tl.int64) * N + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row.to(tl.int64) * N + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


def rms_norm(x: torch.Tensor, w: torch.Tensor, eps: float) -> torch.Tensor:
    x2d = x.reshape(-1, x.shape[-1])
    y = torch.empty_like(x2d)
    rows, n = x2d.shape
    rms_norm_kernel[(rows,)](x2d, w, y, n, eps, BLOCK_N=triton.next_power_of_2(n))
    return y.view(x.shape)


def run(q: torch.Tensor, w: torch.Tensor, eps: float) -> torch.Tensor:
    return rms_norm(q, w, eps)
