"""BigBird block-sparse SDDMM: one program per (nonzero block of the layout, batch * head), reading its
block coordinates from the layout's nonzero list."""
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
def sdd_kernel(q_ptr, k_ptr, list_ptr, out_ptr, nnz, seq_len, scale,
               HEAD_DIM: tl.constexpr, BLOCK: tl.constexpr):
    slot = tl.program_id(0)
    bh = tl.program_id(1)
    qb = tl.load(list_ptr + 2 * slot)
    kb = tl.load(list_ptr + 2 * slot + 1)
    s = _block_scores(q_ptr, k_ptr, bh, qb, kb, seq_len, scale, HEAD_DIM, BLOCK)
    r = tl.arange(0, BLOCK)
    dst = out_ptr + (bh.to(tl.int64) * nnz + slot) * BLOCK * BLOCK
    tl.store(dst + r[:, None] * BLOCK + r[None, :], s.to(out_ptr.dtype.element_ty))


def run(q, k, block_map, block_list, scale):
    b, h, s, d = q.shape
    nnz = block_list.shape[0]
    block = 64
    out = torch.empty((b, h, nnz, block, block), device=q.device, dtype=q.dtype)
    meta = {"HEAD_DIM": d, "BLOCK": block, "num_warps": 4, "num_stages": 2}
    sdd_kernel[(nnz, b * h)](q, k, block_list, out, nnz, s, scale, **meta)
    return out
