"""Matryoshka truncation + L2 normalisation of pooled embeddings: persistent programs over row blocks."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _mrl_normalize(emb, out, n_rows, H, dim, n_blocks, eps,
                   BLOCK_R: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_D)
    col_ok = cols < dim
    for blk in range(pid, n_blocks, nprog):
        rows = blk * BLOCK_R + tl.arange(0, BLOCK_R)
        mask = (rows < n_rows)[:, None] & col_ok[None, :]
        x = tl.load(emb + rows[:, None] * H + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        norm = tl.sqrt(tl.sum(x * x, axis=1))
        y = x / tl.maximum(norm, eps)[:, None]
        tl.store(out + rows[:, None] * dim + cols[None, :], y.to(out.dtype.element_ty), mask=mask)


def run(emb: torch.Tensor, dim: int) -> torch.Tensor:
    N, H = emb.shape
    out = torch.empty((N, dim), device=emb.device, dtype=emb.dtype)
    BLOCK_D = triton.next_power_of_2(dim)
    BLOCK_R = max(1, 8192 // BLOCK_D)
    n_blocks = triton.cdiv(N, BLOCK_R)
    grid = (min(NUM_VECTOR_CORES, n_blocks),)
    _mrl_normalize[grid](emb, out, N, H, dim, n_blocks, 1e-12,
                         BLOCK_R=BLOCK_R, BLOCK_D=BLOCK_D)
    return out
