"""LOBSTER order-book snapshot features (mid, microprice, decayed depth imbalance) on the NPU vector cores."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40  # Atlas A2 (910B) AI vector cores
LEVELS = 10     # LOBSTER depth: (ask px, ask size, bid px, bid size) per level
DECAY = 0.6


@triton.jit
def _lob_features(book, out, T, n_tiles, decay, LEVELS: tl.constexpr, BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for tile in range(pid, n_tiles, nprog):
        rows = tile * BLOCK_T + tl.arange(0, BLOCK_T)
        rmask = rows < T
        rec = book + rows * (4 * LEVELS)
        a1 = tl.load(rec + 0, mask=rmask, other=0.0)
        as1 = tl.load(rec + 1, mask=rmask, other=0.0)
        b1 = tl.load(rec + 2, mask=rmask, other=0.0)
        bs1 = tl.load(rec + 3, mask=rmask, other=0.0)
        num = bs1 - as1
        den = bs1 + as1
        w = 1.0
        for lvl in tl.static_range(1, LEVELS):
            w = w * decay
            ask_sz = tl.load(rec + 4 * lvl + 1, mask=rmask, other=0.0)
            bid_sz = tl.load(rec + 4 * lvl + 3, mask=rmask, other=0.0)
            num += w * (bid_sz - ask_sz)
            den += w * (bid_sz + ask_sz)
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
    _lob_features[grid](book, out, T, n_tiles, DECAY, LEVELS=LEVELS, BLOCK_T=BLOCK_T)
    return out
