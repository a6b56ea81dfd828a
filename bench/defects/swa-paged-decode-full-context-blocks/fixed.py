"""Sliding-window paged decode attention: a program per (sequence, KV head), walking the window's tiles."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _gather_tile(cache_ptr, bt_row, pos, kvh, offs_d, valid, s_blk, s_tok, s_h, PAGE: tl.constexpr):
    phys = tl.load(bt_row + pos // PAGE, mask=valid, other=0).to(tl.int64)
    ptrs = cache_ptr + phys[:, None] * s_blk + (pos % PAGE)[:, None] * s_tok + kvh * s_h + offs_d[None, :]
    return tl.load(ptrs, mask=valid[:, None], other=0.0)


@triton.jit
def swa_decode_kernel(q_ptr, k_ptr, v_ptr, bt_ptr, lens_ptr, o_ptr, window, qk_scale,
                      sq_b, sq_h, s_blk, s_tok, s_h, s_bt, so_b, so_h,
                      GROUP: tl.constexpr, BLOCK_H: tl.constexpr, HEAD_DIM: tl.constexpr,
                      TILE: tl.constexpr, PAGE: tl.constexpr):
    b = tl.program_id(0)
    kvh = tl.program_id(1)
    seq_len = tl.load(lens_ptr + b)
    offs_h = tl.arange(0, BLOCK_H)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_t = tl.arange(0, TILE)
    h_valid = offs_h < GROUP
    heads = kvh * GROUP + offs_h
    q = tl.load(q_ptr + b * sq_b + heads[:, None] * sq_h + offs_d[None, :], mask=h_valid[:, None], other=0.0)
    bt_row = bt_ptr + b * s_bt
    first = tl.maximum(seq_len - window, 0)
    acc = tl.zeros([BLOCK_H, HEAD_DIM], dtype=tl.float32)
    m_i = tl.full([BLOCK_H], -1.0e30, dtype=tl.float32)
    l_i = tl.zeros([BLOCK_H], dtype=tl.float32)
    for start in range((first // TILE) * TILE, seq_len, TILE):
        pos = start + offs_t
        in_seq = pos < seq_len
        k = _gather_tile(k_ptr, bt_row, pos, kvh, offs_d, in_seq, s_blk, s_tok, s_h, PAGE)
        v = _gather_tile(v_ptr, bt_row, pos, kvh, offs_d, in_seq, s_blk, s_tok, s_h, PAGE)
        s = tl.dot(q, tl.trans(k)) * qk_scale
        s = tl.where(in_seq[None, :] & (pos >= first)[None, :], s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.exp2(m_i - m_new)
        p = tl.exp2(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + b * so_b + heads[:, None] * so_h + offs_d[None, :], out.to(o_ptr.dtype.element_ty),
             mask=h_valid[:, None])


def run(q, k_cache, v_cache, block_table, seq_lens, window):
    B, HQ, D = q.shape
    PAGE, HKV = k_cache.shape[1], k_cache.shape[2]
    o = torch.empty_like(q)
    GROUP = HQ // HKV
    BLOCK_H = max(16, triton.next_power_of_2(GROUP))
    TILE = 64 if D <= 128 else 32
    qk_scale = 1.0 / math.sqrt(D) * 1.4426950408889634
    swa_decode_kernel[(B, HKV)](q, k_cache, v_cache, block_table, seq_lens, o, window, qk_scale,
                                q.stride(0), q.stride(1), k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
                                block_table.stride(0), o.stride(0), o.stride(1),
                                GROUP=GROUP, BLOCK_H=BLOCK_H, HEAD_DIM=D, TILE=TILE, PAGE=PAGE,
                                num_warps=4, num_stages=2)
    return o
