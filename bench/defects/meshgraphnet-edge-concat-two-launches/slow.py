"""MeshGraphNet edge MLP layer 1: a gather kernel writes concat(e_feat, n_feat[src], n_feat[dst]) to
an [E, 3D] buffer, then a GEMM kernel reads it back."""
import torch
import triton
import triton.language as tl


@triton.jit
def edge_concat_kernel(efeat_ptr, nfeat_ptr, src_ptr, dst_ptr, cat_ptr, E, D,
                       BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    e = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    em = e < E
    s = tl.load(src_ptr + e, mask=em, other=0)
    d = tl.load(dst_ptr + e, mask=em, other=0)
    for k0 in range(0, D, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        row = cat_ptr + e[:, None] * (3 * D) + k[None, :]
        tl.store(row, tl.load(efeat_ptr + e[:, None] * D + k[None, :], mask=em[:, None]), mask=em[:, None])
        tl.store(row + D, tl.load(nfeat_ptr + s[:, None] * D + k[None, :], mask=em[:, None]), mask=em[:, None])
        tl.store(row + 2 * D, tl.load(nfeat_ptr + d[:, None] * D + k[None, :], mask=em[:, None]),
                 mask=em[:, None])


@triton.jit
def edge_mlp_kernel(cat_ptr, w_ptr, b_ptr, out_ptr, E, D,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    e = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    em = e < E
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, 3 * D, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(cat_ptr + e[:, None] * (3 * D) + k[None, :], mask=em[:, None], other=0.0)
        wt = tl.load(w_ptr + k[:, None] * D + cols[None, :])
        acc = tl.dot(a, wt, acc)
    h = acc + tl.load(b_ptr + cols)[None, :]
    h = h / (1.0 + tl.exp(-h))
    tl.store(out_ptr + e[:, None] * D + cols[None, :], h.to(tl.bfloat16), mask=em[:, None])


def run(efeat, nfeat, src, dst, w, b) -> torch.Tensor:
    E, D = efeat.shape
    out = torch.empty((E, D), device=efeat.device, dtype=torch.bfloat16)
    cat = torch.empty((E, 3 * D), device=efeat.device, dtype=torch.bfloat16)
    BLOCK_M, BLOCK_N, BLOCK_K = 128, min(128, D), min(64, D)
    edge_concat_kernel[(triton.cdiv(E, BLOCK_M),)](efeat, nfeat, src, dst, cat, E, D,
                                                   BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K)
    grid = (triton.cdiv(E, BLOCK_M), triton.cdiv(D, BLOCK_N))
    edge_mlp_kernel[grid](cat, w, b, out, E, D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
    return out
