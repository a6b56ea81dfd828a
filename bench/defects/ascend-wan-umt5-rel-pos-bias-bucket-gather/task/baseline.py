"""umT5 relative position bias [1, H, L, L]: bucket(j - i) looked up in the layer's [32, H] table."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _t5_bucket(d):
    # bidirectional T5 buckets: 16 per sign; |d| < 8 exact, then the log-spaced edges
    # 8 * 16 ** (k / 8), k = 1..7, rounded up (12, 16, 23, 32, 46, 64, 91), capped at 15
    a = tl.abs(d)
    far = 8.0 + (a >= 12.0).to(tl.float32) + (a >= 16.0).to(tl.float32) + (a >= 23.0).to(tl.float32) \
        + (a >= 32.0).to(tl.float32) + (a >= 46.0).to(tl.float32) + (a >= 64.0).to(tl.float32) \
        + (a >= 91.0).to(tl.float32)
    return tl.where(d > 0.0, 16.0, 0.0) + tl.where(a < 8.0, a, far)


@triton.jit
def _band_bias(w_ptr, band_ptr, H, W, SW, SHIFT, n_items, BLOCK_I: tl.constexpr, BLOCK_C: tl.constexpr):
    # band[h, r, c] = bias of offset c - r - SHIFT: each 16-row window of it is a tile of the output
    pid = tl.program_id(0)
    chunks = tl.cdiv(W, BLOCK_C)
    r = tl.arange(0, BLOCK_I)
    for item in range(pid, n_items, tl.num_programs(0)):
        h = item // chunks
        c = (item % chunks) * BLOCK_C + tl.arange(0, BLOCK_C)
        bucket = _t5_bucket((c[None, :] - r[:, None] - SHIFT).to(tl.float32))
        bias = tl.zeros((BLOCK_I, BLOCK_C), dtype=tl.float32)
        for b in tl.static_range(32):
            bias = tl.where(bucket == b, tl.load(w_ptr + b * H + h).to(tl.float32), bias)
        dst = band_ptr + (h * BLOCK_I + r[:, None]) * SW + c[None, :]
        tl.store(dst, bias.to(band_ptr.dtype.element_ty), mask=c[None, :] < W)


@triton.jit
def _expand_band(band_ptr, out_ptr, L, SW, LP, n_tiles, BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    pid = tl.program_id(0)
    row_tiles = tl.cdiv(L, BLOCK_I)
    r = tl.arange(0, BLOCK_I)
    j = tl.arange(0, BLOCK_J)
    for tile in range(pid, n_tiles, tl.num_programs(0)):
        h = tile // row_tiles
        i0 = (tile % row_tiles) * BLOCK_I
        src = band_ptr + (h * BLOCK_I + r[:, None]) * SW + (LP - BLOCK_I - i0) + j[None, :]
        bias = tl.load(src, mask=j[None, :] < L)
        i = i0 + r
        tl.store(out_ptr + (h * L + i[:, None]) * L + j[None, :], bias, mask=(i[:, None] < L) & (j[None, :] < L))


def run(weight: torch.Tensor, seq_len: int) -> torch.Tensor:
    heads = weight.shape[1]
    out = torch.empty((1, heads, seq_len, seq_len), device=weight.device, dtype=weight.dtype)
    block_i, block_c = 16, 256
    padded = triton.cdiv(seq_len, block_i) * block_i
    width = padded - block_i + seq_len
    row_stride = triton.cdiv(width, 16) * 16
    band = torch.empty((heads, block_i, row_stride), device=weight.device, dtype=weight.dtype)
    n_items = heads * triton.cdiv(width, block_c)
    _band_bias[(min(NUM_VECTOR_CORES, n_items),)](weight, band, heads, width, row_stride, padded - block_i,
                                                  n_items, BLOCK_I=block_i, BLOCK_C=block_c)
    n_tiles = heads * triton.cdiv(seq_len, block_i)
    _expand_band[(min(NUM_VECTOR_CORES, n_tiles),)](band, out, seq_len, row_stride, padded, n_tiles,
                                                    BLOCK_I=block_i, BLOCK_J=triton.next_power_of_2(seq_len))
    return out
