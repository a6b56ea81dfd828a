"""RIFE backward warp: the kernel reads the flow planes and forms the sampling position itself."""
import torch
import triton
import triton.language as tl


@triton.jit
def _bilinear_taps(sx, sy, H, W):
    sx = tl.minimum(tl.maximum(sx, 0.0), W - 1.0)
    sy = tl.minimum(tl.maximum(sy, 0.0), H - 1.0)
    fx = tl.floor(sx)
    fy = tl.floor(sy)
    x0 = fx.to(tl.int32)
    y0 = fy.to(tl.int32)
    x1 = tl.minimum(x0 + 1, W - 1)
    y1 = tl.minimum(y0 + 1, H - 1)
    return x0, x1, y0, y1, sx - fx, sy - fy


@triton.jit
def backwarp_kernel(img_ptr, flow_ptr, out_ptr, H, W, C: tl.constexpr, BLOCK: tl.constexpr):
    n = tl.program_id(0)
    y = tl.program_id(1)
    x = tl.program_id(2) * BLOCK + tl.arange(0, BLOCK)
    m = x < W
    hw = H * W
    f = flow_ptr + n.to(tl.int64) * 2 * hw + y * W + x
    sx = x.to(tl.float32) + tl.load(f, mask=m, other=0.0)
    sy = y.to(tl.float32) + tl.load(f + hw, mask=m, other=0.0)
    x0, x1, y0, y1, lx, ly = _bilinear_taps(sx, sy, H, W)
    for c in tl.static_range(C):
        plane = img_ptr + (n.to(tl.int64) * C + c) * hw
        v00 = tl.load(plane + y0 * W + x0, mask=m, other=0.0)
        v01 = tl.load(plane + y0 * W + x1, mask=m, other=0.0)
        v10 = tl.load(plane + y1 * W + x0, mask=m, other=0.0)
        v11 = tl.load(plane + y1 * W + x1, mask=m, other=0.0)
        top = v00 * (1.0 - lx) + v01 * lx
        bot = v10 * (1.0 - lx) + v11 * lx
        tl.store(out_ptr + (n.to(tl.int64) * C + c) * hw + y * W + x, top * (1.0 - ly) + bot * ly, mask=m)


def run(img: torch.Tensor, flow: torch.Tensor) -> torch.Tensor:
    N, C, H, W = img.shape
    out = torch.empty_like(img)
    BLOCK = min(512, triton.next_power_of_2(W))
    grid = (N, H, triton.cdiv(W, BLOCK))
    backwarp_kernel[grid](img, flow, out, H, W, C=C, BLOCK=BLOCK, num_warps=4)
    return out
