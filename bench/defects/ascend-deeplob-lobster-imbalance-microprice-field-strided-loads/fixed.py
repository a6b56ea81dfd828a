"""LOBSTER order-book snapshot features (mid, microprice, decayed depth imbalance) on the NPU vector cores."""
import math

import torch
import triton
import triton.language as tl

NUM_CORES = 40  # Atlas A2 (910B) AI vector cores
LEVELS = 10     # LOBSTER depth: (ask px, ask size, bid px, bid size) per level
DECAY = 0.6


@triton.jit
def _lob_features(book, out, T, n_tiles, log_decay,
                  LEVELS: tl.constexpr, ROW_PAD: tl.constexpr, BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, ROW_PAD)
    lvl = tl.arange(0, ROW_PAD // 4).to(tl.float32)
    w = tl.where(lvl < LEVELS, tl.exp(lvl * log_decay), 0.0)
    top = tl.where(lvl < 0.5, 1.0, 0.0)
    for tile in range(pid, n_tiles, nprog):
        rows = tile * BLOCK_T + tl.arange(0, BLOCK_T)
        rmask = rows < T
        x = tl.load(book + rows[:, None] * (4 * LEVELS) + cols[None, :],
                    mask=rmask[:, None] & (cols[None, :] < 4 * LEVELS), other=0.0)
        quad = tl.reshape(x, (BLOCK_T, ROW_PAD // 4, 2, 2))
        px, sz = tl.split(quad)
        ask_px, bid_px = tl.split(px)
        ask_sz, bid_sz = tl.split(sz)
        a1 = tl.sum(ask_px * top[None, :], axis=1)
        b1 = tl.sum(bid_px * top[None, :], axis=1)
        as1 = tl.sum(ask_sz * top[None, :], axis=1)
        bs1 = tl.sum(bid_sz * top[None, :], axis=1)
        num = tl.sum((bid_sz - ask_sz) * w[None, :], axis=1)
        den = tl.sum((bid_sz + ask_sz) * w[None, :], axis=1)
        mid = 0.5 * (a1 + b1)
        micro = (b1 * as1 + a1 * bs1) / tl.maximum(as1 + bs1, 1e-12)
        imb = num / tl.maximum(den, 1e-12)
        tl.store(out + rows, mid, mask=rmask)
        tl.store(out + T + rows, micro, mask=rmask)
        tl.store(out + 2 * T + rows, imb, mask=rmask)


def run(book: torch.Tensor) -> torch.Tensor:
    T = book.shape[0]
    out = torch.empty(3, T, device=book.device, dtype=torch.float32)
    BLOCK_T = 128
    n_tiles = triton.cdiv(T, BLOCK_T)
    grid = (min(n_tiles, NUM_CORES),)
    _lob_features[grid](book, out, T, n_tiles, math.log(DECAY), LEVELS=LEVELS,
                        ROW_PAD=triton.next_power_of_2(4 * LEVELS), BLOCK_T=BLOCK_T)
    return out
