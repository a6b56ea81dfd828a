"""DLRM dot interaction as a triton-ascend kernel: one program per AI cube core, each looping over its
samples; the feature tile feeds both operands of the pairwise-dot matmul."""
import torch
import triton
import triton.language as tl

NUM_AI_CORES = 20


@triton.jit
def _feature_tile(dense_ptr, sparse_ptr, sample, num_sparse, rows, cols, D: tl.constexpr):
    is_dense = rows == 0
    is_sparse = (rows > 0) & (rows <= num_sparse)
    x = tl.load(dense_ptr + sample * D + cols + rows * 0, mask=is_dense, other=0.0)
    sp = tl.load(sparse_ptr + (sample * num_sparse + rows - 1) * D + cols, mask=is_sparse, other=0.0)
    return x + sp


@triton.jit
def dot_interaction_kernel(dense_ptr, sparse_ptr, out_ptr, batch, num_sparse, out_cols, D: tl.constexpr,
                           BLOCK_F: tl.constexpr):
    pid = tl.program_id(0)
    n_prog = tl.num_programs(0)
    feat = tl.arange(0, BLOCK_F)
    dim = tl.arange(0, D)
    zi = feat[:, None]
    zj = feat[None, :]
    lower = (zj < zi) & (zi <= num_sparse)
    tri_col = D + zi * (zi - 1) // 2 + zj
    for sample in range(pid, batch, n_prog):
        x = _feature_tile(dense_ptr, sparse_ptr, sample, num_sparse, feat[:, None], dim[None, :], D)
        z = tl.dot(x, tl.trans(x))
        out_row = out_ptr + sample * out_cols
        tl.store(out_row + dim, tl.load(dense_ptr + sample * D + dim))
        tl.store(out_row + tri_col, z.to(out_ptr.dtype.element_ty), mask=lower)


def run(dense: torch.Tensor, sparse: torch.Tensor) -> torch.Tensor:
    B, F, D = sparse.shape
    n = F + 1
    out_cols = D + n * (n - 1) // 2
    out = torch.empty((B, out_cols), dtype=dense.dtype, device=dense.device)
    block_f = max(16, triton.next_power_of_2(n))
    grid = (min(NUM_AI_CORES, B),)
    dot_interaction_kernel[grid](dense, sparse, out, B, F, out_cols, D=D, BLOCK_F=block_f)
    return out
