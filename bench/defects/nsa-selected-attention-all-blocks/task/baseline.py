"""NSA selected-block decode attention: loop over the selected block ids only."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _attend_block(q, k_ptrs, v_ptrs, m_i, l_i, acc, sm_scale, valid):
    k = tl.load(k_ptrs)
    v = tl.load(v_ptrs)
    s = tl.dot(q, tl.trans(k)) * sm_scale
    s = tl.where(valid, s, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(s, axis=1))
    alpha = tl.exp(m_i - m_new)
    p = tl.exp(s - m_new[:, None])
    l_i = l_i * alpha + tl.sum(p, axis=1)
    acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
    return m_new, l_i, acc


@triton.jit
def nsa_select_decode_kernel(q_ptr, k_ptr, v_ptr, ids_ptr, out_ptr, sm_scale, NUM_BLOCKS, stride_qb, stride_qh,
                             stride_kb, stride_ks, stride_kh, stride_ib, stride_ih, NSEL: tl.constexpr,
                             G: tl.constexpr, D: tl.constexpr, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    h = tl.program_id(1)
    offs_g = tl.arange(0, G)
    offs_d = tl.arange(0, D)
    offs_t = tl.arange(0, BLOCK)
    q_offs = b * stride_qb + (h * G + offs_g)[:, None] * stride_qh + offs_d[None, :]
    q = tl.load(q_ptr + q_offs)
    kv_base = b.to(tl.int64) * stride_kb + h * stride_kh
    m_i = tl.full([G], -1.0e30, dtype=tl.float32)
    l_i = tl.zeros([G], dtype=tl.float32)
    acc = tl.zeros([G, D], dtype=tl.float32)
    for i in range(NSEL):
        blk = tl.load(ids_ptr + b * stride_ib + h * stride_ih + i)
        tok = blk * BLOCK + offs_t
        offs = kv_base + tok[:, None] * stride_ks + offs_d[None, :]
        m_i, l_i, acc = _attend_block(q, k_ptr + offs, v_ptr + offs, m_i, l_i, acc, sm_scale, True)
    acc = acc / l_i[:, None]
    tl.store(out_ptr + q_offs, acc.to(out_ptr.dtype.element_ty))


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, block_ids: torch.Tensor) -> torch.Tensor:
    B, HQ, D = q.shape
    S, HKV = k.shape[1], k.shape[2]
    NSEL = block_ids.shape[2]
    BLOCK = 64
    out = torch.empty_like(q)
    sm_scale = 1.0 / math.sqrt(D)
    grid = (B, HKV)
    nsa_select_decode_kernel[grid](q, k, v, block_ids, out, sm_scale, S // BLOCK, q.stride(0), q.stride(1),
                                   k.stride(0), k.stride(1), k.stride(2), block_ids.stride(0), block_ids.stride(1),
                                   NSEL=NSEL, G=HQ // HKV, D=D, BLOCK=BLOCK, num_warps=4, num_stages=2)
    return out
