"""Qwen2-VL vision 2-D RoPE: rotate q and k with angles from each token's (row, column) patch position."""
import math

import torch
import triton
import triton.language as tl

VECTOR_CORES = 40


@triton.jit
def _rotate_half(x_ptr, out_ptr, offs, mask, c, s, HALF):
    x1 = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(x_ptr + offs + HALF, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, (x1 * c - x2 * s).to(out_ptr.dtype.element_ty), mask=mask)
    tl.store(out_ptr + offs + HALF, (x2 * c + x1 * s).to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _vision_rope_2d(q, k, q_out, k_out, pos, S, H, HALF, QUARTER, stride_s, stride_h, log2_theta,
                    BLOCK_T: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    toks = tl.arange(0, BLOCK_T)
    heads = tl.arange(0, BLOCK_H)
    dims = tl.arange(0, BLOCK_D)
    dims_f = dims.to(tl.float32)
    on_col = dims_f >= QUARTER
    inv_freq = tl.exp2(-tl.where(on_col, dims_f - QUARTER, dims_f) * (2.0 / HALF) * log2_theta)
    head_offs = heads[None, :, None] * stride_h + dims[None, None, :]
    head_mask = (heads[None, :, None] < H) & (dims[None, None, :] < HALF)
    for block in range(pid, tl.cdiv(S, BLOCK_T), nprog):
        t = block * BLOCK_T + toks
        tmask = t < S
        row = tl.load(pos + t, mask=tmask, other=0).to(tl.float32)
        col = tl.load(pos + S + t, mask=tmask, other=0).to(tl.float32)
        angle = tl.where(on_col[None, :], col[:, None], row[:, None]) * inv_freq[None, :]
        c = tl.cos(angle)[:, None, :]
        s = tl.sin(angle)[:, None, :]
        offs = t[:, None, None] * stride_s + head_offs
        mask = tmask[:, None, None] & head_mask
        _rotate_half(q, q_out, offs, mask, c, s, HALF)
        _rotate_half(k, k_out, offs, mask, c, s, HALF)


def run(q: torch.Tensor, k: torch.Tensor, pos: torch.Tensor) -> tuple:
    S, H, D = q.shape
    q_out = torch.empty_like(q)
    k_out = torch.empty_like(k)
    BLOCK_T = 4
    grid = (min(VECTOR_CORES, triton.cdiv(S, BLOCK_T)),)
    _vision_rope_2d[grid](q, k, q_out, k_out, pos, S, H, D // 2, D // 4, q.stride(0), q.stride(1),
                          math.log2(10000.0), BLOCK_T=BLOCK_T, BLOCK_H=triton.next_power_of_2(H),
                          BLOCK_D=triton.next_power_of_2(D // 2))
    return q_out, k_out
