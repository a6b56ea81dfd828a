"""Flatten an int4 paged KV cache into [B * S, H, D] fp16: one program per sequence walks its block table."""
import torch
import triton
import triton.language as tl


@triton.jit
def _dequant_rows(cache_ptr, scale_ptr, zero_ptr, out_ptr, src_row, dst_row, n_rows,
                  HALF: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    """n_rows consecutive (token, head) rows: HALF packed bytes each -> 2 * HALF fp16 values."""
    r = tl.arange(0, BLOCK_R)
    c = tl.arange(0, BLOCK_C)
    rmask = r < n_rows
    mask = rmask[:, None] & (c < HALF)[None, :]
    q = tl.load(cache_ptr + (src_row + r)[:, None] * HALF + c[None, :], mask=mask, other=0).to(tl.int32)
    s = tl.load(scale_ptr + src_row + r, mask=rmask, other=0.0).to(tl.float32)
    z = tl.load(zero_ptr + src_row + r, mask=rmask, other=0.0).to(tl.float32)
    sz = s * z
    lo = (q & 15).to(tl.float32) * s[:, None] - sz[:, None]
    hi = (q >> 4).to(tl.float32) * s[:, None] - sz[:, None]
    dst = out_ptr + (dst_row + r)[:, None] * (2 * HALF) + c[None, :]
    tl.store(dst, lo.to(tl.float16), mask=mask)
    tl.store(dst + HALF, hi.to(tl.float16), mask=mask)


@triton.jit
def _flatten_int4_kv(cache_ptr, scale_ptr, zero_ptr, table_ptr, out_ptr, S, n_blk, BS, H,
                     CHUNK: tl.constexpr, HALF: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    seq = tl.program_id(0)
    for t0 in range(0, S, CHUNK):
        blk = tl.load(table_ptr + seq * n_blk + t0 // BS)
        src_row = (blk * BS + t0 % BS) * H
        dst_row = (seq * S + t0) * H
        _dequant_rows(cache_ptr, scale_ptr, zero_ptr, out_ptr, src_row, dst_row, CHUNK * H,
                      HALF, BLOCK_R, BLOCK_C)


def _chunk_tokens(BS: int, H: int) -> int:
    """Tokens per step: up to 128 (token, head) rows, a power of two that divides the block."""
    chunk = 1
    while chunk * 2 * H <= 128 and chunk * 2 <= BS:
        chunk *= 2
    return chunk


def run(cache: torch.Tensor, scale: torch.Tensor, zero: torch.Tensor, block_table: torch.Tensor) -> torch.Tensor:
    _, BS, H, half = cache.shape
    B, n_blk = block_table.shape
    S = n_blk * BS
    out = torch.empty((B * S, H, 2 * half), dtype=torch.float16, device=cache.device)
    chunk = _chunk_tokens(BS, H)
    _flatten_int4_kv[(B,)](cache, scale, zero, block_table, out, S, n_blk, BS, H,
                           CHUNK=chunk, HALF=half, BLOCK_R=triton.next_power_of_2(chunk * H),
                           BLOCK_C=triton.next_power_of_2(half))
    return out
