"""BigBird block-sparse SDDMM: one program per (block of the score matrix, batch * head); the dense block
map gives each block's slot in the compressed output."""
import torch
import triton
import triton.language as tl


@triton.jit
def _block_scores(q_ptr, k_ptr, bh, qb, kb, seq_len, scale, HEAD_DIM: tl.constexpr, BLOCK: tl.constexpr):
    base = bh.to(tl.int64) * seq_len * HEAD_DIM
    r = tl.arange(0, BLOCK)
    d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + base + (qb * BLOCK + r)[:, None] * HEAD_DIM + d[None, :])
    kt = tl.load(k_ptr + base + (kb * BLOCK + r)[None, :] * HEAD_DIM + d[:, None])
    return tl.dot(q, kt) * scale


@triton.jit
def sdd_kernel(q_ptr, k_ptr, map_ptr, out_ptr, n_blocks, nnz, seq_len, scale,
               HEAD_DIM: tl.constexpr, BLOCK: tl.constexpr):
    tile = tl.program_id(0)
    bh = tl.program_id(1)
    qb = tile // n_blocks
    kb = tile % n_blocks
    slot = tl.load(map_ptr + tile)
    s = _block_scores(q_ptr, k_ptr, bh, qb, kb, seq_len, scale, HEAD_DIM, BLOCK)
    r = tl.arange(0, BLOCK)
    dst = out_ptr + (bh.to(tl.int64) * nnz + tl.maximum(slot, 0)) * BLOCK * BLOCK
    tl.store(dst + r[:, None] * BLOCK + r[None, :], s.to(out_ptr.dtype.element_ty), mask=slot >= 0)


def run(q, k, block_map, block_list, scale):
    b, h, s, d = q.shape
    nnz = block_list.shape[0]
    n_blocks = block_map.shape[0]
    block = 64
    out = torch.empty((b, h, nnz, block, block), device=q.device, dtype=q.dtype)
    meta = {"HEAD_DIM": d, "BLOCK": block, "num_warps": 4, "num_stages": 2}
    sdd_kernel[(n_blocks * n_blocks, b * h)](q, k, block_map, out, n_blocks, nnz, s, scale, **meta)
    return out
