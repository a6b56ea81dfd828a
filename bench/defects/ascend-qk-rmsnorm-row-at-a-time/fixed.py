"""Qwen3 per-head q/k RMSNorm for triton-ascend: a grid of one program per vector core, each
normalising a [ROWS, D] tile of head rows per iteration."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def qk_rmsnorm_kernel(x_ptr, w_ptr, out_ptr, n_rows, eps, D: tl.constexpr, ROWS: tl.constexpr,
                      NUM_CORES: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, D)
    w = tl.load(w_ptr + cols).to(tl.float32)
    n_blocks = tl.cdiv(n_rows, ROWS)
    for blk in range(pid, n_blocks, NUM_CORES):
        rows = blk * ROWS + tl.arange(0, ROWS)
        rmask = rows < n_rows
        offs = rows[:, None] * D + cols[None, :]
        x = tl.load(x_ptr + offs, mask=rmask[:, None], other=0.0).to(tl.float32)
        rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=1) / D + eps)
        y = x * rstd[:, None] * w[None, :]
        tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=rmask[:, None])


def run(q: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    T, H, D = q.shape
    out = torch.empty_like(q)
    n_rows = T * H
    qk_rmsnorm_kernel[(NUM_VECTOR_CORES,)](q, w, out, n_rows, 1e-6, D=D, ROWS=64,
                                           NUM_CORES=NUM_VECTOR_CORES)
    return out
