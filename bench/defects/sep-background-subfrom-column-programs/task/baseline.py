"""sep background subtraction: the mesh grid of sky level and rms interpolated bilinearly to every pixel."""
import torch
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _subtract_background(img, back, rms, sub, rms_map, H, W, nx, ny, bw, bh, BLOCK: tl.constexpr):
    y = tl.program_id(0)
    xs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    inside = xs < W
    # mesh bracket along y: one per program
    v = (y + 0.5) / bh - 0.5
    v = tl.minimum(tl.maximum(v, 0.0), ny - 1.0)
    j0 = v.to(tl.int32)
    j1 = tl.minimum(j0 + 1, ny - 1)
    ty = v - j0
    # mesh bracket along x: one per pixel
    u = (xs + 0.5) / bw - 0.5
    u = tl.minimum(tl.maximum(u, 0.0), nx - 1.0)
    i0 = u.to(tl.int32)
    i1 = tl.minimum(i0 + 1, nx - 1)
    tx = u - i0
    b00 = tl.load(back + j0 * nx + i0, mask=inside, other=0.0)
    b01 = tl.load(back + j0 * nx + i1, mask=inside, other=0.0)
    b10 = tl.load(back + j1 * nx + i0, mask=inside, other=0.0)
    b11 = tl.load(back + j1 * nx + i1, mask=inside, other=0.0)
    r00 = tl.load(rms + j0 * nx + i0, mask=inside, other=0.0)
    r01 = tl.load(rms + j0 * nx + i1, mask=inside, other=0.0)
    r10 = tl.load(rms + j1 * nx + i0, mask=inside, other=0.0)
    r11 = tl.load(rms + j1 * nx + i1, mask=inside, other=0.0)
    bk = (1.0 - ty) * ((1.0 - tx) * b00 + tx * b01) + ty * ((1.0 - tx) * b10 + tx * b11)
    rm = (1.0 - ty) * ((1.0 - tx) * r00 + tx * r01) + ty * ((1.0 - tx) * r10 + tx * r11)
    offs = y * W + xs
    d = tl.load(img + offs, mask=inside, other=0.0)
    tl.store(sub + offs, d - bk, mask=inside)
    tl.store(rms_map + offs, rm, mask=inside)


def run(image: torch.Tensor, back: torch.Tensor, rms: torch.Tensor, bw: int, bh: int) -> tuple:
    H, W = image.shape
    ny, nx = back.shape
    sub = torch.empty_like(image)
    rms_map = torch.empty_like(image)
    grid = (H, triton.cdiv(W, BLOCK))
    _subtract_background[grid](image, back, rms, sub, rms_map, H, W, nx, ny, bw, bh,
                               BLOCK=BLOCK, num_warps=4)
    return sub, rms_map
