"""Paged decode attention that loads one cache block (16 tokens) per step as a [16, D] tile."""
import torch
import triton
import triton.language as tl


@triton.jit
def paged_decode_kernel(q_ptr, k_ptr, v_ptr, table_ptr, lens_ptr, o_ptr, H, MAX_BLOCKS, qk_scale,
                        BLOCK_SIZE: tl.constexpr, HEAD_DIM: tl.constexpr):
    seq = tl.program_id(0)
    head = tl.program_id(1)
    dims = tl.arange(0, HEAD_DIM)
    slots = tl.arange(0, BLOCK_SIZE)
    q = tl.load(q_ptr + (seq * H + head) * HEAD_DIM + dims).to(tl.float32)
    n = tl.load(lens_ptr + seq)
    m_i = -float("inf")
    l_i = 0.0
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    for j in range(0, tl.cdiv(n, BLOCK_SIZE)):
        blk = tl.load(table_ptr + seq * MAX_BLOCKS + j).to(tl.int64)
        valid = j * BLOCK_SIZE + slots < n
        offs = ((blk * BLOCK_SIZE + slots[:, None]) * H + head) * HEAD_DIM + dims[None, :]
        k = tl.load(k_ptr + offs, mask=valid[:, None], other=0.0).to(tl.float32)
        s = tl.where(valid, tl.sum(q[None, :] * k, axis=1) * qk_scale, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=0))
        alpha = tl.math.exp2(m_i - m_new)
        p = tl.math.exp2(s - m_new)
        v = tl.load(v_ptr + offs, mask=valid[:, None], other=0.0).to(tl.float32)
        l_i = l_i * alpha + tl.sum(p, axis=0)
        acc = acc * alpha + tl.sum(p[:, None] * v, axis=0)
        m_i = m_new
    tl.store(o_ptr + (seq * H + head) * HEAD_DIM + dims, (acc / l_i).to(o_ptr.dtype.element_ty))


def run(q, k_cache, v_cache, block_table, seq_lens) -> torch.Tensor:
    B, H, D = q.shape
    o = torch.empty_like(q)
    qk_scale = D ** -0.5 * 1.4426950408889634
    paged_decode_kernel[(B, H)](q, k_cache, v_cache, block_table, seq_lens, o, H, block_table.shape[1],
                                qk_scale, BLOCK_SIZE=k_cache.shape[1], HEAD_DIM=D)
    return o
