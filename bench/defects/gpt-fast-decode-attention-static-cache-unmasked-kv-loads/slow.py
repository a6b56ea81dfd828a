"""Decode attention over gpt-fast's static KV cache: split-KV partials, then a merge launch."""
import math

import torch
import triton
import triton.language as tl

PARTITION = 256   # keys per split (flash-decoding partition)
LOG2E = 1.4426950408889634


@triton.jit
def _decode_split(q_ptr, k_ptr, v_ptr, pos_ptr, m_ptr, l_ptr, acc_ptr,
                  s_max, qk_scale,
                  HQ: tl.constexpr, GROUP: tl.constexpr, HKV: tl.constexpr, D: tl.constexpr,
                  SPLIT_LEN: tl.constexpr, BLOCK_N: tl.constexpr):
    bh = tl.program_id(0)
    split = tl.program_id(1)
    b = bh // HQ
    kvh = (bh % HQ) // GROUP
    pos = tl.load(pos_ptr)
    d = tl.arange(0, D)
    q = tl.load(q_ptr + bh * D + d).to(tl.float32) * qk_scale
    kv_base = (b * HKV + kvh) * s_max * D
    m_i = tl.full([], -1.0e30, tl.float32)
    l_i = tl.zeros([], tl.float32)
    acc = tl.zeros([D], tl.float32)
    start = split * SPLIT_LEN
    for n0 in range(start, start + SPLIT_LEN, BLOCK_N):
        n = n0 + tl.arange(0, BLOCK_N)
        in_cache = n < s_max
        offs = kv_base + n[:, None] * D + d[None, :]
        k = tl.load(k_ptr + offs, mask=in_cache[:, None], other=0.0).to(tl.float32)
        s = tl.sum(k * q[None, :], axis=1)
        s = tl.where(n <= pos, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=0))
        alpha = tl.exp2(m_i - m_new)
        p = tl.exp2(s - m_new)
        v = tl.load(v_ptr + offs, mask=in_cache[:, None], other=0.0).to(tl.float32)
        l_i = l_i * alpha + tl.sum(p, axis=0)
        acc = acc * alpha + tl.sum(p[:, None] * v, axis=0)
        m_i = m_new
    part = bh * tl.num_programs(1) + split
    tl.store(m_ptr + part, m_i)
    tl.store(l_ptr + part, l_i)
    tl.store(acc_ptr + part * D + d, acc)


@triton.jit
def _merge_splits(m_ptr, l_ptr, acc_ptr, out_ptr, n_splits, D: tl.constexpr, SPLITS_POW2: tl.constexpr):
    bh = tl.program_id(0)
    sp = tl.arange(0, SPLITS_POW2)
    sp_ok = sp < n_splits
    d = tl.arange(0, D)
    m = tl.load(m_ptr + bh * n_splits + sp, mask=sp_ok, other=-1.0e30)
    l = tl.load(l_ptr + bh * n_splits + sp, mask=sp_ok, other=0.0)
    acc = tl.load(acc_ptr + (bh * n_splits + sp)[:, None] * D + d[None, :], mask=sp_ok[:, None], other=0.0)
    w = tl.exp2(m - tl.max(m, axis=0))
    out = tl.sum(w[:, None] * acc, axis=0) / tl.sum(w * l, axis=0)
    tl.store(out_ptr + bh * D + d, out.to(out_ptr.dtype.element_ty))


def run(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor, input_pos: torch.Tensor) -> torch.Tensor:
    B, HQ, D = q.shape
    HKV, S_MAX = k_cache.shape[1], k_cache.shape[2]
    split_len = min(PARTITION, triton.next_power_of_2(triton.cdiv(S_MAX, 8)))
    n_splits = triton.cdiv(S_MAX, split_len)
    block_n = min(64, split_len)
    m = torch.empty(B * HQ * n_splits, device=q.device, dtype=torch.float32)
    l = torch.empty(B * HQ * n_splits, device=q.device, dtype=torch.float32)
    acc = torch.empty(B * HQ * n_splits, D, device=q.device, dtype=torch.float32)
    out = torch.empty_like(q)
    _decode_split[(B * HQ, n_splits)](q, k_cache, v_cache, input_pos, m, l, acc, S_MAX,
                                      LOG2E / math.sqrt(D),
                                      HQ=HQ, GROUP=HQ // HKV, HKV=HKV, D=D, SPLIT_LEN=split_len,
                                      BLOCK_N=block_n, num_warps=4)
    _merge_splits[(B * HQ,)](m, l, acc, out, n_splits, D=D, SPLITS_POW2=triton.next_power_of_2(n_splits),
                             num_warps=4)
    return out
