"""Conformer conv module: GLU, depthwise conv over time, folded BatchNorm and SiLU in one pass (channels-last)."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40  # Atlas A2 (910B4): 40 AI vector cores
BLOCK_T = 16
BLOCK_C = 128


@triton.jit
def _glu_dwconv_bn_silu(h, w, scale, shift, out, T, C, n_t, n_c, n_tiles,
                        K: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rows = tl.arange(0, BLOCK_T)
    lanes = tl.arange(0, BLOCK_C)
    for tile in range(pid, n_tiles, nprog):
        b = tile // (n_t * n_c)
        t0 = (tile // n_c) % n_t * BLOCK_T
        c = (tile % n_c) * BLOCK_C + lanes
        c_ok = c < C
        t = t0 + rows
        acc = tl.zeros((BLOCK_T, BLOCK_C), dtype=tl.float32)
        for j in tl.static_range(K):
            src_t = t + (j - K // 2)
            m = ((src_t >= 0) & (src_t < T))[:, None] & c_ok[None, :]
            src = h + (b * T + src_t)[:, None] * (2 * C) + c[None, :]
            a = tl.load(src, mask=m, other=0.0).to(tl.float32)
            g = tl.load(src + C, mask=m, other=0.0).to(tl.float32)
            tap = tl.load(w + j * C + c, mask=c_ok, other=0.0)
            acc += a * tl.sigmoid(g) * tap[None, :]
        y = acc * tl.load(scale + c, mask=c_ok, other=1.0)[None, :] + tl.load(shift + c, mask=c_ok, other=0.0)[None, :]
        y = y * tl.sigmoid(y)
        dst = out + (b * T + t)[:, None] * C + c[None, :]
        tl.store(dst, y.to(out.dtype.element_ty), mask=(t < T)[:, None] & c_ok[None, :])


def run(h: torch.Tensor, w: torch.Tensor, scale: torch.Tensor, shift: torch.Tensor) -> torch.Tensor:
    B, T, C2 = h.shape
    K, C = w.shape
    out = torch.empty((B, T, C), device=h.device, dtype=h.dtype)
    n_t, n_c = triton.cdiv(T, BLOCK_T), triton.cdiv(C, BLOCK_C)
    n_tiles = B * n_t * n_c
    grid = (min(n_tiles, NUM_VECTOR_CORES),)
    _glu_dwconv_bn_silu[grid](h, w, scale, shift, out, T, C, n_t, n_c, n_tiles,
                              K=K, BLOCK_T=BLOCK_T, BLOCK_C=BLOCK_C)
    return out
