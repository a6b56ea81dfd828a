"""IFRNet frame synthesis: warp both mean-subtracted frames by their flows (bilinear, border padding,
align_corners=True), then blend with the occlusion mask, add the mean and the residual, clamp to [0, 1]."""
import torch
import triton
import triton.language as tl


@triton.jit
def _footprint(flow_ptr, b, offs, m, H, W, HW):
    fx = tl.load(flow_ptr + (b * 2 + 0) * HW + offs, mask=m, other=0.0)
    fy = tl.load(flow_ptr + (b * 2 + 1) * HW + offs, mask=m, other=0.0)
    x = tl.minimum(tl.maximum((offs % W).to(tl.float32) + fx, 0.0), W - 1.0)
    y = tl.minimum(tl.maximum((offs // W).to(tl.float32) + fy, 0.0), H - 1.0)
    x0 = tl.minimum(tl.floor(x).to(tl.int32), W - 1)
    y0 = tl.minimum(tl.floor(y).to(tl.int32), H - 1)
    x1 = tl.minimum(x0 + 1, W - 1)
    y1 = tl.minimum(y0 + 1, H - 1)
    lx = x - x0.to(tl.float32)
    ly = y - y0.to(tl.float32)
    return (y0 * W + x0, y0 * W + x1, y1 * W + x0, y1 * W + x1,
            (1.0 - ly) * (1.0 - lx), (1.0 - ly) * lx, ly * (1.0 - lx), ly * lx)


@triton.jit
def _tap4(plane, m, o00, o01, o10, o11, w00, w01, w10, w11):
    v00 = tl.load(plane + o00, mask=m, other=0.0)
    v01 = tl.load(plane + o01, mask=m, other=0.0)
    v10 = tl.load(plane + o10, mask=m, other=0.0)
    v11 = tl.load(plane + o11, mask=m, other=0.0)
    return w00 * v00 + w01 * v01 + w10 * v10 + w11 * v11


@triton.jit
def backwarp_kernel(img_ptr, flow_ptr, out_ptr, H, W, HW, C: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    b = tl.program_id(1)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < HW
    o00, o01, o10, o11, w00, w01, w10, w11 = _footprint(flow_ptr, b, offs, m, H, W, HW)
    for c in tl.static_range(C):
        plane = (b * C + c) * HW
        v = _tap4(img_ptr + plane, m, o00, o01, o10, o11, w00, w01, w10, w11)
        tl.store(out_ptr + plane + offs, v, mask=m)


@triton.jit
def merge_kernel(warp0_ptr, warp1_ptr, mask_ptr, res_ptr, mean_ptr, out_ptr, HW,
                 C: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    b = tl.program_id(1)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < HW
    alpha = tl.load(mask_ptr + b * HW + offs, mask=m, other=0.0)
    mean = tl.load(mean_ptr + b)
    for c in tl.static_range(C):
        plane = (b * C + c) * HW
        w0 = tl.load(warp0_ptr + plane + offs, mask=m, other=0.0)
        w1 = tl.load(warp1_ptr + plane + offs, mask=m, other=0.0)
        r = tl.load(res_ptr + plane + offs, mask=m, other=0.0)
        y = alpha * w0 + (1.0 - alpha) * w1 + mean + r
        tl.store(out_ptr + plane + offs, tl.minimum(tl.maximum(y, 0.0), 1.0), mask=m)


def run(img0: torch.Tensor, img1: torch.Tensor, flow0: torch.Tensor, flow1: torch.Tensor, mask: torch.Tensor,
        res: torch.Tensor, mean: torch.Tensor) -> torch.Tensor:
    B, C, H, W = img0.shape
    HW = H * W
    out = torch.empty_like(img0)
    img0_warp = torch.empty_like(img0)
    img1_warp = torch.empty_like(img1)
    BLOCK = 1024
    opts = {"C": C, "BLOCK": BLOCK, "num_warps": 4}
    grid = (triton.cdiv(HW, BLOCK), B)
    backwarp_kernel[grid](img0, flow0, img0_warp, H, W, HW, **opts)
    backwarp_kernel[grid](img1, flow1, img1_warp, H, W, HW, **opts)
    merge_kernel[grid](img0_warp, img1_warp, mask, res, mean, out, HW, **opts)
    return out
