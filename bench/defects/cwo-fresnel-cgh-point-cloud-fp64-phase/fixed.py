"""Point-cloud Fresnel CGH: every SLM pixel sums the Fresnel zone patterns of all object points."""
import torch
import triton
import triton.language as tl

PI = tl.constexpr(3.141592653589793)


@triton.jit
def _fresnel_cgh(points, out, N, H, W, pitch, wavelength, BH: tl.constexpr, BW: tl.constexpr):
    row = tl.program_id(1) * BH + tl.arange(0, BH)[:, None]
    col = tl.program_id(0) * BW + tl.arange(0, BW)[None, :]
    x = (col.to(tl.float32) - W * 0.5) * pitch
    y = (row.to(tl.float32) - H * 0.5) * pitch
    re = tl.zeros([BH, BW], dtype=tl.float32)
    im = tl.zeros([BH, BW], dtype=tl.float32)
    for j in range(N):
        px = tl.load(points + j * 4 + 0)
        py = tl.load(points + j * 4 + 1)
        pz = tl.load(points + j * 4 + 2)
        amp = tl.load(points + j * 4 + 3)
        k = PI / (wavelength * pz)
        dx = x - px
        dy = y - py
        theta = (dx * dx + dy * dy) * k
        re += amp * tl.cos(theta)
        im += amp * tl.sin(theta)
    dst = out + (row * W + col) * 2
    inside = (row < H) & (col < W)
    tl.store(dst, re, mask=inside)
    tl.store(dst + 1, im, mask=inside)


def run(points: torch.Tensor, H: int, W: int, pitch: float, wavelength: float) -> torch.Tensor:
    N = points.shape[0]
    out = torch.empty((H, W, 2), device=points.device, dtype=torch.float32)
    BH, BW = 4, 128
    grid = (triton.cdiv(W, BW), triton.cdiv(H, BH))
    _fresnel_cgh[grid](points, out, N, H, W, pitch, wavelength, BH=BH, BW=BW, num_warps=4)
    return out
