"""DLRM dot interaction: one program per sample loads its [F, D] feature tile once and forms the Gram matrix with tl.dot."""
import torch
import triton
import triton.language as tl


@triton.jit
def _feature_tile(dense_ptr, emb_ptr, b, f, d, S, D):
    """Rows of T = [dense; emb]: row 0 is the dense vector, rows 1..S the embeddings; rows past S are zero."""
    dmask = d < D
    x_dense = tl.load(dense_ptr + b * D + d[None, :], mask=(f == 0)[:, None] & dmask[None, :], other=0.0)
    e = f - 1
    x_emb = tl.load(emb_ptr + (b * S + e)[:, None] * D + d[None, :],
                    mask=((e >= 0) & (e < S))[:, None] & dmask[None, :], other=0.0)
    return x_dense + x_emb


@triton.jit
def dot_interaction_kernel(dense_ptr, emb_ptr, out_ptr, S, D, OUT_W, BLOCK_F: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    f = tl.arange(0, BLOCK_F)
    d = tl.arange(0, BLOCK_D)
    t = _feature_tile(dense_ptr, emb_ptr, b, f, d, S, D)
    z = tl.dot(t, tl.trans(t))                       # [F, F], fp32 accumulate
    tl.store(out_ptr + b * OUT_W + d, tl.load(dense_ptr + b * D + d, mask=d < D), mask=d < D)
    i = f[:, None]
    j = f[None, :]
    keep = (j < i) & (i <= S)
    tl.store(out_ptr + b * OUT_W + D + (i * (i - 1)) // 2 + j, z.to(out_ptr.dtype.element_ty), mask=keep)


def dot_interaction(dense: torch.Tensor, emb: torch.Tensor) -> torch.Tensor:
    B, S, D = emb.shape
    F = S + 1
    out_w = D + F * (F - 1) // 2
    out = torch.empty((B, out_w), dtype=dense.dtype, device=dense.device)
    BLOCK_F = max(16, triton.next_power_of_2(F))
    BLOCK_D = max(16, triton.next_power_of_2(D))
    dot_interaction_kernel[(B,)](dense, emb, out, S, D, out_w, BLOCK_F=BLOCK_F, BLOCK_D=BLOCK_D, num_warps=4)
    return out


def run(dense: torch.Tensor, emb: torch.Tensor) -> torch.Tensor:
    return dot_interaction(dense, emb)
