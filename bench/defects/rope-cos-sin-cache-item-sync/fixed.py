"""LongRoPE rotary: the cache offset (short or long factors) is computed on the device and read by the rotary kernel."""
import torch
import triton
import triton.language as tl


@triton.jit
def cache_offset_kernel(pos_ptr, out_ptr, T, original_max, maxpos, BLOCK: tl.constexpr):
    acc = tl.full((BLOCK,), -1, dtype=tl.int64)
    for start in range(0, T, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc = tl.maximum(acc, tl.load(pos_ptr + offs, mask=offs < T, other=-1))
    top = tl.max(acc, axis=0)
    tl.store(out_ptr, tl.where(top + 1 > original_max, maxpos, 0).to(tl.int64))


@triton.jit
def _rotate_heads(x_ptr, out_ptr, row, H, cos, sin, D: tl.constexpr, BLOCK_H: tl.constexpr):
    h = tl.arange(0, BLOCK_H)
    j = tl.arange(0, D // 2)
    ptr = row * H * D + h[:, None] * D + j[None, :]
    m = h[:, None] < H
    x1 = tl.load(x_ptr + ptr, mask=m, other=0.0).to(tl.float32)
    x2 = tl.load(x_ptr + ptr + D // 2, mask=m, other=0.0).to(tl.float32)
    tl.store(out_ptr + ptr, (x1 * cos[None, :] - x2 * sin[None, :]).to(out_ptr.dtype.element_ty), mask=m)
    tl.store(out_ptr + ptr + D // 2, (x2 * cos[None, :] + x1 * sin[None, :]).to(out_ptr.dtype.element_ty), mask=m)


@triton.jit
def rope_kernel(pos_ptr, q_ptr, k_ptr, qo_ptr, ko_ptr, cache_ptr, offset_ptr, HQ, HK,
                D: tl.constexpr, BLOCK_HQ: tl.constexpr, BLOCK_HK: tl.constexpr):
    row = tl.program_id(0)
    pos = tl.load(pos_ptr + row) + tl.load(offset_ptr)
    j = tl.arange(0, D // 2)
    cos = tl.load(cache_ptr + pos * D + j)
    sin = tl.load(cache_ptr + pos * D + D // 2 + j)
    _rotate_heads(q_ptr, qo_ptr, row, HQ, cos, sin, D, BLOCK_HQ)
    _rotate_heads(k_ptr, ko_ptr, row, HK, cos, sin, D, BLOCK_HK)


class LongRoPE:
    """Host side of the rotary layer: the factor choice stays on the device, then one rotary launch."""

    def __init__(self, cache: torch.Tensor, original_max: int):
        self.cache = cache
        self.maxpos = cache.shape[0] // 2
        self.original_max = original_max

    def __call__(self, positions: torch.Tensor, q: torch.Tensor, k: torch.Tensor) -> tuple:
        T = positions.numel()
        D = self.cache.shape[1]
        hq, hk = q.shape[1] // D, k.shape[1] // D
        offset = torch.empty((1,), device=positions.device, dtype=torch.int64)
        cache_offset_kernel[(1,)](positions, offset, T, self.original_max, self.maxpos, BLOCK=1024)
        q_out, k_out = torch.empty_like(q), torch.empty_like(k)
        rope_kernel[(T,)](positions, q, k, q_out, k_out, self.cache, offset, hq, hk, D=D,
                          BLOCK_HQ=triton.next_power_of_2(hq), BLOCK_HK=triton.next_power_of_2(hk), num_warps=4)
        return q_out, k_out


def run(positions, q, k, cache, original_max) -> tuple:
    return LongRoPE(cache, original_max)(positions, q, k)
