"""Paged decode attention that walks the cached tokens one at a time with a scalar online softmax."""
import torch
import triton
import triton.language as tl


@triton.jit
def paged_decode_kernel(q_ptr, k_ptr, v_ptr, table_ptr, lens_ptr, o_ptr, H, MAX_BLOCKS, qk_scale,
                        BLOCK_SIZE: tl.constexpr, HEAD_DIM: tl.constexpr):
    seq = tl.program_id(0)
    head = tl.program_id(1)
    dims = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + (seq * H + head) * HEAD_DIM + dims).to(tl.float32)
    n = tl.load(lens_ptr + seq)
    m_i = -float("inf")
    l_i = 0.0
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    for t in range(0, n):
        blk = tl.load(table_ptr + seq * MAX_BLOCKS + t // BLOCK_SIZE).to(tl.int64)
        offs = ((blk * BLOCK_SIZE + t % BLOCK_SIZE) * H + head) * HEAD_DIM + dims
        s = tl.sum(q * tl.load(k_ptr + offs).to(tl.float32), axis=0) * qk_scale
        m_new = tl.maximum(m_i, s)
        alpha = tl.math.exp2(m_i - m_new)
        p = tl.math.exp2(s - m_new)
        l_i = l_i * alpha + p
        acc = acc * alpha + p * tl.load(v_ptr + offs).to(tl.float32)
        m_i = m_new
    tl.store(o_ptr + (seq * H + head) * HEAD_DIM + dims, (acc / l_i).to(o_ptr.dtype.element_ty))


def run(q, k_cache, v_cache, block_table, seq_lens) -> torch.Tensor:
    B, H, D = q.shape
    o = torch.empty_like(q)
    qk_scale = D ** -0.5 * 1.4426950408889634
    paged_decode_kernel[(B, H)](q, k_cache, v_cache, block_table, seq_lens, o, H, block_table.shape[1],
                                qk_scale, BLOCK_SIZE=k_cache.shape[1], HEAD_DIM=D)
    return o
