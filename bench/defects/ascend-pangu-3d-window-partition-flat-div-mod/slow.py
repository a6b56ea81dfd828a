"""Pangu-Weather 3-D window partition: persistent programs over 1024-element blocks of the output."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _window_partition(x, out, n, Z, H, W, C, n_z, n_h, n_w,
                      NPROG: tl.constexpr, WZ: tl.constexpr, WH: tl.constexpr, WW: tl.constexpr,
                      BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    lanes = tl.arange(0, BLOCK)
    for start in range(pid * BLOCK, n, NPROG * BLOCK):
        o = start + lanes
        mask = o < n
        c = o % C
        tok = (o // C) % (WZ * WH * WW)
        win = o // (C * WZ * WH * WW)
        dw = tok % WW
        dh = (tok // WW) % WH
        dz = tok // (WW * WH)
        hi = win % n_h
        zi = (win // n_h) % n_z
        band = win // (n_h * n_z)
        lon = band % n_w
        b = band // n_w
        src = (((b * Z + zi * WZ + dz) * H + hi * WH + dh) * W + lon * WW + dw) * C + c
        tl.store(out + o, tl.load(x + src, mask=mask), mask=mask)


def run(x: torch.Tensor) -> torch.Tensor:
    B, Z, H, W, C = x.shape
    WZ, WH, WW = 2, 6, 12
    n_z, n_h, n_w = Z // WZ, H // WH, W // WW
    out = torch.empty((B * n_w, n_z * n_h, WZ * WH * WW, C), device=x.device, dtype=x.dtype)
    n = out.numel()
    BLOCK = 1024
    nprog = min(triton.cdiv(n, BLOCK), NUM_VECTOR_CORES)
    _window_partition[(nprog,)](x, out, n, Z, H, W, C, n_z, n_h, n_w, NPROG=nprog,
                                WZ=WZ, WH=WH, WW=WW, BLOCK=BLOCK)
    return out
