"""RIFE backward warp on channels-last frames: one pixel's channels and its (u, v) flow are adjacent in memory."""
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
def backwarp_kernel(img_ptr, flow_ptr, out_ptr, H, W, C, BLOCK: tl.constexpr, CP: tl.constexpr):
    n = tl.program_id(0)
    y = tl.program_id(1)
    x = tl.program_id(2) * BLOCK + tl.arange(0, BLOCK)
    m = x < W
    hw = H * W
    pix = n.to(tl.int64) * hw + y * W + x
    sx = x.to(tl.float32) + tl.load(flow_ptr + pix * 2, mask=m, other=0.0)
    sy = y.to(tl.float32) + tl.load(flow_ptr + pix * 2 + 1, mask=m, other=0.0)
    x0, x1, y0, y1, lx, ly = _bilinear_taps(sx, sy, H, W)
    c = tl.arange(0, CP)
    cm = m[:, None] & (c < C)[None, :]
    frame = img_ptr + n.to(tl.int64) * hw * C + c[None, :]
    v00 = tl.load(frame + (y0 * W + x0)[:, None] * C, mask=cm, other=0.0)
    v01 = tl.load(frame + (y0 * W + x1)[:, None] * C, mask=cm, other=0.0)
    v10 = tl.load(frame + (y1 * W + x0)[:, None] * C, mask=cm, other=0.0)
    v11 = tl.load(frame + (y1 * W + x1)[:, None] * C, mask=cm, other=0.0)
    lx = lx[:, None]
    ly = ly[:, None]
    top = v00 * (1.0 - lx) + v01 * lx
    bot = v10 * (1.0 - lx) + v11 * lx
    tl.store(out_ptr + pix[:, None] * C + c[None, :], top * (1.0 - ly) + bot * ly, mask=cm)


def run(img: torch.Tensor, flow: torch.Tensor) -> torch.Tensor:
    N, C, H, W = img.shape
    img_hwc = img.permute(0, 2, 3, 1).contiguous()
    flow_hw2 = flow.permute(0, 2, 3, 1).contiguous()
    out_hwc = torch.empty((N, H, W, C), device=img.device, dtype=img.dtype)
    BLOCK = min(512, triton.next_power_of_2(W))
    launch = (N, H, triton.cdiv(W, BLOCK))
    backwarp_kernel[launch](img_hwc, flow_hw2, out_hwc, H, W, C, BLOCK=BLOCK, CP=triton.next_power_of_2(C),
                            num_warps=4)
    return out_hwc.permute(0, 3, 1, 2).contiguous()
