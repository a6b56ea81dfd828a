"""Sliding tile attention forward (HunyuanVideo STA): a FlashAttention-style program per block of
queries, with the 3-D tile window applied as a key mask."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _tile_coords(tile_id, NH, NW):
    return tile_id // (NH * NW), (tile_id // NW) % NH, tile_id % NW


@triton.jit
def _window_start(center, n_tiles, W: tl.constexpr):
    return tl.minimum(tl.maximum(center - W // 2, 0), n_tiles - W)


@triton.jit
def _online_softmax_step(acc, m_i, l_i, qk, v):
    m_new = tl.maximum(m_i, tl.max(qk, 1))
    alpha = tl.math.exp2(m_i - m_new)
    p = tl.math.exp2(qk - m_new[:, None])
    l_i = l_i * alpha + tl.sum(p, 1)
    acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
    return acc, m_new, l_i


@triton.jit
def sta_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, N, NT, NH, NW, D, qk_scale,
                   TILE: tl.constexpr, WT: tl.constexpr, WH: tl.constexpr, WW: tl.constexpr,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    head = bh * N * D
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    dmask = offs_d[None, :] < D
    q = tl.load(q_ptr + head + offs_m[:, None] * D + offs_d[None, :], mask=dmask, other=0.0)

    ct, ch, cw = _tile_coords((pid_m * BLOCK_M) // TILE, NH, NW)
    st = _window_start(ct, NT, WT)
    sh = _window_start(ch, NH, WH)
    sw = _window_start(cw, NW, WW)

    m_i = tl.full([BLOCK_M], -1.0e30, dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_D], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        kv = start + offs_n
        kt, kh, kw = _tile_coords(kv // TILE, NH, NW)
        in_window = (kt >= st) & (kt < st + WT) & (kh >= sh) & (kh < sh + WH) & (kw >= sw) & (kw < sw + WW)
        k = tl.load(k_ptr + head + kv[:, None] * D + offs_d[None, :], mask=dmask, other=0.0)
        v = tl.load(v_ptr + head + kv[:, None] * D + offs_d[None, :], mask=dmask, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        qk = tl.where(in_window[None, :], qk, float("-inf"))
        acc, m_i, l_i = _online_softmax_step(acc, m_i, l_i, qk, v)

    acc = acc / l_i[:, None]
    tl.store(o_ptr + head + offs_m[:, None] * D + offs_d[None, :], acc.to(o_ptr.dtype.element_ty), mask=dmask)


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, tiles: tuple, tile: tuple, window: tuple) -> torch.Tensor:
    B, H, N, D = q.shape
    NT, NH, NW = tiles
    WT, WH, WW = window
    vol = math.prod(tile)
    o = torch.empty_like(q)
    meta = {
        "BLOCK_M": math.gcd(vol, 128),
        "BLOCK_N": math.gcd(vol, 64),
        "BLOCK_D": triton.next_power_of_2(D),
        "num_warps": 8 if D > 64 else 4,
        "num_stages": 2,
    }
    qk_scale = D ** -0.5 * 1.4426950408889634
    grid = (N // meta["BLOCK_M"], B * H)
    sta_fwd_kernel[grid](q, k, v, o, N, NT, NH, NW, D, qk_scale, TILE=vol, WT=WT, WH=WH, WW=WW, **meta)
    return o
