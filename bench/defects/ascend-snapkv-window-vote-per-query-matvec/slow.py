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
    d = tl.arange(0, D)
    k_head = k + (head // G) * L * D
    for w in range(W):
        q_row = tl.load(q + (head * W + w) * D + d).to(tl.float32)
        qpos = L - W + w
        m = float("-inf")
        l = 0.0
        for start in range(0, qpos + 1, BLOCK_N):
            n = start + tl.arange(0, BLOCK_N)
            k_tile = tl.load(k_head + n[:, None] * D + d[None, :], mask=(n < L)[:, None], other=0.0)
            s = tl.sum(k_tile.to(tl.float32) * q_row[None, :], axis=1) * scale
            s = tl.where(n.to(tl.float32) <= qpos.to(tl.float32), s, float("-inf"))
            m_new = tl.maximum(m, tl.max(s, axis=0))
            l = l * tl.exp(m - m_new) + tl.sum(tl.exp(s - m_new), axis=0)
            m = m_new
        tl.store(lse + head * W + w, m + tl.log(l))


@triton.jit
def _prefix_vote(q, k, lse, votes, L, n_prefix, tiles_per_part, parts, scale,
                 W: tl.constexpr, G: tl.constexpr, D: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    kv = pid // parts
    first = (pid % parts) * tiles_per_part
    last = tl.minimum(first + tiles_per_part, tl.cdiv(n_prefix, BLOCK_N))
    d = tl.arange(0, D)
    k_head = k + kv * L * D
    for t in range(first, last):
        n = t * BLOCK_N + tl.arange(0, BLOCK_N)
        valid = n < n_prefix
        k_tile = tl.load(k_head + n[:, None] * D + d[None, :], mask=valid[:, None], other=0.0).to(tl.float32)
        acc = tl.zeros([BLOCK_N], tl.float32)
        for r in range(G * W):
            row = kv * G * W + r
            q_row = tl.load(q + row * D + d).to(tl.float32)
            s = tl.sum(k_tile * q_row[None, :], axis=1) * scale
            acc += tl.exp(s - tl.load(lse + row))
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
