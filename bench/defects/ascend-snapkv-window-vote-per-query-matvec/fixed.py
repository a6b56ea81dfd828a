"""SnapKV observation-window vote: softmax of the last W queries over all keys, summed per prefix key and KV head."""
import math

import torch
import triton
import triton.language as tl

PROGRAMS = 40
BLOCK_N = 64


@triton.jit
def _window_lse(q, k, lse, L, scale, W: tl.constexpr, G: tl.constexpr, D: tl.constexpr, BLOCK_N: tl.constexpr):
    head = tl.program_id(0)
    w = tl.arange(0, W)
    d = tl.arange(0, D)
    q_tile = tl.load(q + (head * W + w)[:, None] * D + d[None, :])
    qpos = (L - W + w).to(tl.float32)
    k_head = k + (head // G) * L * D
    m = tl.full([W], float("-inf"), tl.float32)
    l = tl.zeros([W], tl.float32)
    for start in range(0, L, BLOCK_N):
        n = start + tl.arange(0, BLOCK_N)
        k_tile = tl.load(k_head + n[:, None] * D + d[None, :], mask=(n < L)[:, None], other=0.0)
        s = tl.dot(q_tile, tl.trans(k_tile)) * scale
        s = tl.where(n.to(tl.float32)[None, :] <= qpos[:, None], s, float("-inf"))
        m_new = tl.maximum(m, tl.max(s, axis=1))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(s - m_new[:, None]), axis=1)
        m = m_new
    tl.store(lse + head * W + w, m + tl.log(l))


@triton.jit
def _prefix_vote(q, k, lse, votes, L, n_prefix, tiles_per_part, parts, scale,
                 W: tl.constexpr, G: tl.constexpr, D: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    kv = pid // parts
    first = (pid % parts) * tiles_per_part
    last = tl.minimum(first + tiles_per_part, tl.cdiv(n_prefix, BLOCK_N))
    w = tl.arange(0, W)
    d = tl.arange(0, D)
    k_head = k + kv * L * D
    for t in range(first, last):
        n = t * BLOCK_N + tl.arange(0, BLOCK_N)
        valid = n < n_prefix
        k_tile = tl.load(k_head + n[:, None] * D + d[None, :], mask=valid[:, None], other=0.0)
        acc = tl.zeros([BLOCK_N], tl.float32)
        for g in range(G):
            rows = (kv * G + g) * W + w
            q_tile = tl.load(q + rows[:, None] * D + d[None, :])
            row_lse = tl.load(lse + rows)
            s = tl.dot(k_tile, tl.trans(q_tile)) * scale
            acc += tl.sum(tl.exp(s - row_lse[None, :]), axis=1)
        tl.store(votes + kv * n_prefix + n, acc, mask=valid)


def run(q_win: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    hq, w, d = q_win.shape
    hkv, length, _ = k.shape
    group = hq // hkv
    n_prefix = length - w
    scale = 1.0 / math.sqrt(d)
    lse = torch.empty(hq, w, device=k.device, dtype=torch.float32)
    votes = torch.empty(hkv, n_prefix, device=k.device, dtype=torch.float32)
    _window_lse[(hq,)](q_win, k, lse, length, scale, W=w, G=group, D=d, BLOCK_N=BLOCK_N)
    parts = max(1, PROGRAMS // hkv)
    tiles_per_part = triton.cdiv(triton.cdiv(n_prefix, BLOCK_N), parts)
    _prefix_vote[(hkv * parts,)](q_win, k, lse, votes, length, n_prefix, tiles_per_part, parts, scale,
                                 W=w, G=group, D=d, BLOCK_N=BLOCK_N)
    return votes
