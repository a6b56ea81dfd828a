"""Affine warp of 3-D volumes with trilinear sampling (MONAI AffineTransform: affine_grid + grid_sample)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _affine_grid(theta, grid, D, H, W, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    b = row // (D * H)
    d = (row // H) % D
    h = row % H
    w = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    xn = (2.0 * w + 1.0) / W - 1.0
    yn = (2.0 * h + 1.0) / H - 1.0
    zn = (2.0 * d + 1.0) / D - 1.0
    t = theta + b * 12
    out = grid + (row * W + w) * 3
    m = w < W
    for i in tl.static_range(3):
        g = tl.load(t + 4 * i) * xn + tl.load(t + 4 * i + 1) * yn + tl.load(t + 4 * i + 2) * zn + tl.load(t + 4 * i + 3)
        tl.store(out + i, g, mask=m)


@triton.jit
def _grid_sample(src, grid, dst, C, D, H, W, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    b = row // (D * H)
    w = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = w < W
    g = grid + (row * W + w) * 3
    ix = ((tl.load(g, mask=m, other=0.0) + 1.0) * W - 1.0) * 0.5
    iy = ((tl.load(g + 1, mask=m, other=0.0) + 1.0) * H - 1.0) * 0.5
    iz = ((tl.load(g + 2, mask=m, other=0.0) + 1.0) * D - 1.0) * 0.5
    x0f = tl.floor(ix)
    y0f = tl.floor(iy)
    z0f = tl.floor(iz)
    fx = ix - x0f
    fy = iy - y0f
    fz = iz - z0f
    x0 = x0f.to(tl.int32)
    y0 = y0f.to(tl.int32)
    z0 = z0f.to(tl.int32)
    plane = D * H * W
    for c in range(C):
        vol = src + (b * C + c) * plane
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for corner in tl.static_range(8):
            dz = corner // 4
            dy = (corner // 2) % 2
            dx = corner % 2
            zz = z0 + dz
            yy = y0 + dy
            xx = x0 + dx
            ok = m & (zz >= 0) & (zz < D) & (yy >= 0) & (yy < H) & (xx >= 0) & (xx < W)
            v = tl.load(vol + (zz * H + yy) * W + xx, mask=ok, other=0.0)
            wz = fz if dz == 1 else 1.0 - fz
            wy = fy if dy == 1 else 1.0 - fy
            wx = fx if dx == 1 else 1.0 - fx
            acc += v * (wz * wy * wx)
        tl.store(dst + ((b * C + c) * D * H + (row % (D * H))) * W + w, acc, mask=m)


def run(src: torch.Tensor, theta: torch.Tensor) -> torch.Tensor:
    B, C, D, H, W = src.shape
    BLOCK = 128
    launch = (B * D * H, triton.cdiv(W, BLOCK))
    grid = torch.empty(B, D, H, W, 3, device=src.device, dtype=torch.float32)
    _affine_grid[launch](theta, grid, D, H, W, BLOCK=BLOCK, num_warps=4)
    out = torch.empty_like(src)
    _grid_sample[launch](src, grid, out, C, D, H, W, BLOCK=BLOCK, num_warps=4)
    return out
