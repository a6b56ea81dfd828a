"""PWC-Net backward warp: bilinear sampling of the features at (x + u, y + v), zeroed where the footprint leaves the image."""
import torch
import triton
import triton.language as tl


@triton.jit
def _warp_pixel(feat, flow, out, C, H, W, BLOCK_C: tl.constexpr):
    px = tl.program_id(0)
    py = tl.program_id(1)
    b = tl.program_id(2)
    HW = H * W
    p = py * W + px
    u = tl.load(flow + (2 * b) * HW + p)
    v = tl.load(flow + (2 * b + 1) * HW + p)
    sx = px.to(tl.float32) + u
    sy = py.to(tl.float32) + v
    fx = tl.floor(sx)
    fy = tl.floor(sy)
    ax = sx - fx
    ay = sy - fy
    x0 = fx.to(tl.int32)
    y0 = fy.to(tl.int32)
    x1 = x0 + 1
    y1 = y0 + 1
    in_x0 = (x0 >= 0) & (x0 < W)
    in_x1 = (x1 >= 0) & (x1 < W)
    in_y0 = (y0 >= 0) & (y0 < H)
    in_y1 = (y1 >= 0) & (y1 < H)
    w00 = (1.0 - ax) * (1.0 - ay)
    w01 = ax * (1.0 - ay)
    w10 = (1.0 - ax) * ay
    w11 = ax * ay
    cover = (tl.where(in_x0 & in_y0, w00, 0.0) + tl.where(in_x1 & in_y0, w01, 0.0)
             + tl.where(in_x0 & in_y1, w10, 0.0) + tl.where(in_x1 & in_y1, w11, 0.0))
    keep = cover >= 0.9999

    c = tl.arange(0, BLOCK_C)
    c_ok = c < C
    plane = feat + (b * C + c) * HW
    v00 = tl.load(plane + y0 * W + x0, mask=c_ok & in_x0 & in_y0, other=0.0)
    v01 = tl.load(plane + y0 * W + x1, mask=c_ok & in_x1 & in_y0, other=0.0)
    v10 = tl.load(plane + y1 * W + x0, mask=c_ok & in_x0 & in_y1, other=0.0)
    v11 = tl.load(plane + y1 * W + x1, mask=c_ok & in_x1 & in_y1, other=0.0)
    val = w00 * v00 + w01 * v01 + w10 * v10 + w11 * v11
    val = tl.where(keep, val, 0.0)
    tl.store(out + (b * C + c) * HW + p, val, mask=c_ok)


def run(feat: torch.Tensor, flow: torch.Tensor) -> torch.Tensor:
    B, C, H, W = feat.shape
    out = torch.empty_like(feat)
    _warp_pixel[(W, H, B)](feat, flow, out, C, H, W,
                           BLOCK_C=triton.next_power_of_2(C), num_warps=1)
    return out
