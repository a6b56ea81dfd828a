"""Baseline RoPE from qkv: one program per token, q and k read in place through the qkv row stride."""
import torch
import triton
import triton.language as tl


@triton.jit
def _rotate(x_ptr, o_ptr, row_off, out_off, c, s, H: tl.constexpr, HALF: tl.constexpr):
    h = tl.arange(0, H)[:, None] * (2 * HALF)
    j = tl.arange(0, HALF)[None, :]
    x1 = tl.load(x_ptr + row_off + h + j).to(tl.float32)
    x2 = tl.load(x_ptr + row_off + h + HALF + j).to(tl.float32)
    tl.store(o_ptr + out_off + h + j, (x1 * c - x2 * s).to(o_ptr.dtype.element_ty))
    tl.store(o_ptr + out_off + h + HALF + j, (x2 * c + x1 * s).to(o_ptr.dtype.element_ty))


@triton.jit
def rope_kernel(q_ptr, k_ptr, pos_ptr, cache_ptr, qo_ptr, ko_ptr, q_stride, k_stride,
                HQ: tl.constexpr, HKV: tl.constexpr, HALF: tl.constexpr):
    t = tl.program_id(0)
    p = tl.load(pos_ptr + t)
    j = tl.arange(0, HALF)[None, :]
    c = tl.load(cache_ptr + p * 2 * HALF + j)
    s = tl.load(cache_ptr + p * 2 * HALF + HALF + j)
    _rotate(q_ptr, qo_ptr, t * q_stride, t * HQ * 2 * HALF, c, s, HQ, HALF)
    _rotate(k_ptr, ko_ptr, t * k_stride, t * HKV * 2 * HALF, c, s, HKV, HALF)


def run(qkv, pos, cache, hq, hkv) -> tuple:
    T = qkv.shape[0]
    D = cache.shape[1]
    q, k, _ = qkv.split([hq * D, hkv * D, hkv * D], dim=-1)
    q_out = torch.empty((T, hq * D), device=qkv.device, dtype=qkv.dtype)
    k_out = torch.empty((T, hkv * D), device=qkv.device, dtype=qkv.dtype)
    rope_kernel[(T,)](q, k, pos, cache, q_out, k_out, qkv.stride(0), qkv.stride(0), HQ=hq, HKV=hkv, HALF=D // 2)
    return q_out, k_out
