"""NeoX rotary embedding for triton-ascend with the angles computed from the positions in the kernel:
a grid of one program per vector core over 32-token blocks; cos/sin of a block are computed once,
then every q head and every k head of the block is rotated with them."""
import math

import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _rotate_head(x_ptr, out_ptr, base, stride_t, cos, sin, tmask, toks, HALF: tl.constexpr):
    cols = tl.arange(0, HALF)
    offs = base + toks[:, None] * stride_t + cols[None, :]
    m = tmask[:, None]
    x1 = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    x2 = tl.load(x_ptr + offs + HALF, mask=m, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, (x1 * cos - x2 * sin).to(out_ptr.dtype.element_ty), mask=m)
    tl.store(out_ptr + offs + HALF, (x2 * cos + x1 * sin).to(out_ptr.dtype.element_ty), mask=m)


@triton.jit
def rope_kernel(q_ptr, k_ptr, pos_ptr, qo_ptr, ko_ptr, n_tokens, log_theta,
                HQ: tl.constexpr, HK: tl.constexpr, HALF: tl.constexpr, BLOCK_T: tl.constexpr,
                NUM_CORES: tl.constexpr):
    pid = tl.program_id(0)
    i = tl.arange(0, HALF).to(tl.float32)
    inv_freq = tl.exp(-(i / HALF) * log_theta)
    n_blocks = tl.cdiv(n_tokens, BLOCK_T)
    for blk in range(pid, n_blocks, NUM_CORES):
        toks = blk * BLOCK_T + tl.arange(0, BLOCK_T)
        tmask = toks < n_tokens
        pos = tl.load(pos_ptr + toks, mask=tmask, other=0).to(tl.float32)
        ang = pos[:, None] * inv_freq[None, :]
        cos = tl.cos(ang)
        sin = tl.sin(ang)
        for h in range(HQ):
            _rotate_head(q_ptr, qo_ptr, h * 2 * HALF, HQ * 2 * HALF, cos, sin, tmask, toks, HALF)
        for h in range(HK):
            _rotate_head(k_ptr, ko_ptr, h * 2 * HALF, HK * 2 * HALF, cos, sin, tmask, toks, HALF)


def run(q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor) -> tuple:
    T, HQ, D = q.shape
    HK = k.shape[1]
    q_out = torch.empty_like(q)
    k_out = torch.empty_like(k)
    rope_kernel[(NUM_VECTOR_CORES,)](q, k, positions, q_out, k_out, T, math.log(1000000.0),
                                     HQ=HQ, HK=HK, HALF=D // 2, BLOCK_T=32, NUM_CORES=NUM_VECTOR_CORES)
    return q_out, k_out
