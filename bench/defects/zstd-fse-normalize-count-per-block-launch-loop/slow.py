"""zstd FSE_normalizeCount for the match-length code histogram of every block."""
import torch
import triton
import triton.language as tl

LANES = 64  # next power of two above MaxML + 1 = 53


@triton.jit
def _fse_normalize_count(count, table_log, norm, blk, n_sym, LANES: tl.constexpr):
    s = tl.arange(0, LANES)
    ok = s < n_sym
    c = tl.load(count + blk * n_sym + s, mask=ok, other=0).to(tl.int64)
    log = tl.load(table_log + blk).to(tl.int64)
    total = tl.sum(c, axis=0)
    scale = 62 - log
    one = tl.full([], 1, tl.int64)
    step = (one << 62) // total
    v_step = one << (scale - 20)
    low_threshold = total >> log
    low_prob = tl.where(total >= 2048, -1, 1).to(tl.int64)

    prod = c * step
    p = prod >> scale
    rtb = tl.where(p == 1, 473195, tl.where(p == 2, 504333, tl.where(p == 3, 520860, 0)))
    rtb = tl.where(p == 4, 550000, tl.where(p == 5, 700000, tl.where(p == 6, 750000, rtb)))
    rtb = tl.where(p == 7, 830000, rtb).to(tl.int64)
    p += ((p < 8) & (prod - (p << scale) > v_step * rtb)).to(tl.int64)

    low = (c > 0) & (c <= low_threshold)
    regular = c > low_threshold
    nc = tl.where(regular, p, tl.where(low, low_prob, 0))
    still = (one << log) - tl.sum(low.to(tl.int64), axis=0) - tl.sum(tl.where(regular, p, 0), axis=0)
    largest_p = tl.max(tl.where(regular, p, -1), axis=0)
    largest = tl.min(tl.where(regular & (p == largest_p), s, LANES), axis=0)
    nc = tl.where(s == largest, nc + still, nc)
    rle = tl.max((c == total).to(tl.int32), axis=0)
    nc = tl.where(rle > 0, 0, nc)
    tl.store(norm + blk * n_sym + s, nc.to(tl.int16), mask=ok)


def run(count: torch.Tensor, table_log: torch.Tensor) -> torch.Tensor:
    n_blocks, n_sym = count.shape
    norm = torch.empty((n_blocks, n_sym), device=count.device, dtype=torch.int16)
    for blk in range(n_blocks):
        _fse_normalize_count[(1,)](count, table_log, norm, blk, n_sym, LANES=LANES, num_warps=1)
    return norm
