"""MeshGraphNet edge MLP layer 1: one GEMM kernel whose K loop reads the edge rows and the gathered
src / dst node rows directly, so the [E, 3D] concatenation is never materialised."""
import torch
import triton
import triton.language as tl


@triton.jit
def _acc_part(acc, a_ptr, rows, row_mask, w_ptr, w_row0, cols, D, BLOCK_K: tl.constexpr):
    for k0 in range(0, D, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rows[:, None] * D + k[None, :], mask=row_mask[:, None], other=0.0)
        wt = tl.load(w_ptr + (w_row0 + k)[:, None] * D + cols[None, :])
        acc = tl.dot(a, wt, acc)
    return acc


@triton.jit
def edge_mlp_kernel(efeat_ptr, nfeat_ptr, src_ptr, dst_ptr, w_ptr, b_ptr, out_ptr, E, D,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    e = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    em = e < E
    s = tl.load(src_ptr + e, mask=em, other=0)
    d = tl.load(dst_ptr + e, mask=em, other=0)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    acc = _acc_part(acc, efeat_ptr, e, em, w_ptr, 0, cols, D, BLOCK_K)
    acc = _acc_part(acc, nfeat_ptr, s, em, w_ptr, D, cols, D, BLOCK_K)
    acc = _acc_part(acc, nfeat_ptr, d, em, w_ptr, 2 * D, cols, D, BLOCK_K)
    h = acc + tl.load(b_ptr + cols)[None, :]
    h = h / (1.0 + tl.exp(-h))
    tl.store(out_ptr + e[:, None] * D + cols[None, :], h.to(tl.bfloat16), mask=em[:, None])


def run(efeat, nfeat, src, dst, w, b) -> torch.Tensor:
    E, D = efeat.shape
    out = torch.empty((E, D), device=efeat.device, dtype=torch.bfloat16)
    BLOCK_M, BLOCK_N, BLOCK_K = 128, min(128, D), min(64, D)
    grid = (triton.cdiv(E, BLOCK_M), triton.cdiv(D, BLOCK_N))
    edge_mlp_kernel[grid](efeat, nfeat, src, dst, w, b, out, E, D,
                          BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
    return out
