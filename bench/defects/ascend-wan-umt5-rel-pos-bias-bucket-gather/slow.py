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
def _rel_pos_bias(w_ptr, out_ptr, L, H, n_tiles, BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    pid = tl.program_id(0)
    row_tiles = tl.cdiv(L, BLOCK_I)
    j = tl.arange(0, BLOCK_J)
    for tile in range(pid, n_tiles, tl.num_programs(0)):
        h = tile // row_tiles
        i = (tile % row_tiles) * BLOCK_I + tl.arange(0, BLOCK_I)
        d = (j[None, :] - i[:, None]).to(tl.float32)
        bucket = _t5_bucket(d).to(tl.int32)
        bias = tl.load(w_ptr + bucket * H + h)
        keep = (i[:, None] < L) & (j[None, :] < L)
        tl.store(out_ptr + (h * L + i[:, None]) * L + j[None, :], bias, mask=keep)


def run(weight: torch.Tensor, seq_len: int) -> torch.Tensor:
    heads = weight.shape[1]
    out = torch.empty((1, heads, seq_len, seq_len), device=weight.device, dtype=weight.dtype)
    block_i = 16
    n_tiles = heads * triton.cdiv(seq_len, block_i)
    grid = (min(NUM_VECTOR_CORES, n_tiles),)
    _rel_pos_bias[grid](weight, out, seq_len, heads, n_tiles,
                        BLOCK_I=block_i, BLOCK_J=triton.next_power_of_2(seq_len))
    return out
