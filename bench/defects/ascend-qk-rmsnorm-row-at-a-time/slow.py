"""Qwen3 per-head q/k RMSNorm for triton-ascend: a grid of one program per vector core, each
walking its share of the head rows one 128-element row at a time."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def qk_rmsnorm_kernel(x_ptr, w_ptr, out_ptr, n_rows, eps, D: tl.constexpr, NUM_CORES: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, D)
    w = tl.load(w_ptr + cols).to(tl.float32)
    for row in range(pid, n_rows, NUM_CORES):
        offs = row * D + cols
        x = tl.load(x_ptr + offs).to(tl.float32)
        rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / D + eps)
        y = x * rstd * w
        tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty))


def run(q: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    T, H, D = q.shape
    out = torch.empty_like(q)
    n_rows = T * H
    qk_rmsnorm_kernel[(NUM_VECTOR_CORES,)](q, w, out, n_rows, 1e-6, D=D, NUM_CORES=NUM_VECTOR_CORES)
    return out
