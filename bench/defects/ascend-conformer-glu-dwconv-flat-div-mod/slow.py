"""Conformer conv module: GLU, depthwise conv over time, folded BatchNorm and SiLU in one pass (channels-last)."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40  # Atlas A2 (910B4): 40 AI vector cores
BLOCK = 1024


@triton.jit
def _glu_dwconv_bn_silu(h, w, scale, shift, out, total, T, C, K: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK)
    for start in range(pid * BLOCK, total, nprog * BLOCK):
        idx = start + lanes
        live = idx < total
        c = idx % C
        bt = idx // C
        t = bt % T
        acc = tl.zeros((BLOCK,), dtype=tl.float32)
        for j in tl.static_range(K):
            src_t = t + (j - K // 2)
            m = live & (src_t >= 0) & (src_t < T)
            src = h + (bt + (j - K // 2)) * (2 * C) + c
            a = tl.load(src, mask=m, other=0.0).to(tl.float32)
            g = tl.load(src + C, mask=m, other=0.0).to(tl.float32)
            tap = tl.load(w + j * C + c, mask=live, other=0.0)
            acc += a * tl.sigmoid(g) * tap
        y = acc * tl.load(scale + c, mask=live, other=1.0) + tl.load(shift + c, mask=live, other=0.0)
        y = y * tl.sigmoid(y)
        tl.store(out + idx, y.to(out.dtype.element_ty), mask=live)


def run(h: torch.Tensor, w: torch.Tensor, scale: torch.Tensor, shift: torch.Tensor) -> torch.Tensor:
    B, T, C2 = h.shape
    K, C = w.shape
    out = torch.empty((B, T, C), device=h.device, dtype=h.dtype)
    total = B * T * C
    grid = (min(triton.cdiv(total, BLOCK), NUM_VECTOR_CORES),)
    _glu_dwconv_bn_silu[grid](h, w, scale, shift, out, total, T, C, K=K, BLOCK=BLOCK)
    return out
