"""RoIAlign forward for the Mask R-CNN mask-head pooler (torchvision semantics, aligned=False), NCHW features;
a program pools one RoI, channel block by channel block, vectorised over the P*P output bins."""
import torch
import triton
import triton.language as tl


@triton.jit
def _bilinear_setup(y, x, H, W):
    valid = (y >= -1.0) & (y <= H) & (x >= -1.0) & (x <= W)
    y = tl.maximum(y, 0.0)
    x = tl.maximum(x, 0.0)
    y_lo = y.to(tl.int32)
    x_lo = x.to(tl.int32)
    y_top = y_lo >= H - 1
    x_top = x_lo >= W - 1
    y_lo = tl.where(y_top, H - 1, y_lo)
    x_lo = tl.where(x_top, W - 1, x_lo)
    y = tl.where(y_top, y_lo.to(tl.float32), y)
    x = tl.where(x_top, x_lo.to(tl.float32), x)
    y_hi = tl.where(y_top, y_lo, y_lo + 1)
    x_hi = tl.where(x_top, x_lo, x_lo + 1)
    ly = y - y_lo.to(tl.float32)
    lx = x - x_lo.to(tl.float32)
    hy = 1.0 - ly
    hx = 1.0 - lx
    scale = tl.where(valid, 1.0, 0.0)
    return (y_lo * W + x_lo, y_lo * W + x_hi, y_hi * W + x_lo, y_hi * W + x_hi,
            hy * hx * scale, hy * lx * scale, ly * hx * scale, ly * lx * scale)


@triton.jit
def _roi_channel_block(feat_ptr, out_ptr, roi, c0, C, H, W, bidx, rx0, ry0, bin_w, bin_h,
                       POOLED: tl.constexpr, SR: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_BIN: tl.constexpr):
    bins = tl.arange(0, BLOCK_BIN)
    ph = bins // POOLED
    pw = bins % POOLED
    bin_ok = bins < POOLED * POOLED
    ch = c0 + tl.arange(0, BLOCK_C)
    ch_ok = ch < C
    m2 = ch_ok[:, None] & bin_ok[None, :]
    plane = feat_ptr + (bidx * C + ch).to(tl.int64)[:, None] * (H * W)
    acc = tl.zeros([BLOCK_C, BLOCK_BIN], dtype=tl.float32)
    for iy in tl.static_range(SR):
        y = ry0 + ph.to(tl.float32) * bin_h + (iy + 0.5) * bin_h / SR
        for ix in tl.static_range(SR):
            x = rx0 + pw.to(tl.float32) * bin_w + (ix + 0.5) * bin_w / SR
            o1, o2, o3, o4, w1, w2, w3, w4 = _bilinear_setup(y, x, H, W)
            v1 = tl.load(plane + o1[None, :], mask=m2, other=0.0)
            v2 = tl.load(plane + o2[None, :], mask=m2, other=0.0)
            v3 = tl.load(plane + o3[None, :], mask=m2, other=0.0)
            v4 = tl.load(plane + o4[None, :], mask=m2, other=0.0)
            acc += w1[None, :] * v1 + w2[None, :] * v2 + w3[None, :] * v3 + w4[None, :] * v4
    acc = acc / (SR * SR)
    dst = out_ptr + (roi * C + ch).to(tl.int64)[:, None] * (POOLED * POOLED) + bins[None, :]
    tl.store(dst, acc, mask=m2)


@triton.jit
def roi_align_kernel(feat_ptr, rois_ptr, out_ptr, C, H, W, spatial_scale,
                     POOLED: tl.constexpr, SR: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_BIN: tl.constexpr):
    roi = tl.program_id(0)
    r = rois_ptr + roi * 5
    bidx = tl.load(r).to(tl.int32)
    rx0 = tl.load(r + 1) * spatial_scale
    ry0 = tl.load(r + 2) * spatial_scale
    roi_w = tl.maximum(tl.load(r + 3) * spatial_scale - rx0, 1.0)
    roi_h = tl.maximum(tl.load(r + 4) * spatial_scale - ry0, 1.0)
    for c0 in range(0, C, BLOCK_C):
        _roi_channel_block(feat_ptr, out_ptr, roi, c0, C, H, W, bidx, rx0, ry0,
                           roi_w / POOLED, roi_h / POOLED, POOLED, SR, BLOCK_C, BLOCK_BIN)


def run(features: torch.Tensor, rois: torch.Tensor, pooled: int, spatial_scale: float,
        sampling_ratio: int) -> torch.Tensor:
    _, C, H, W = features.shape
    K = rois.shape[0]
    out = torch.empty((K, C, pooled, pooled), device=features.device, dtype=features.dtype)
    BLOCK_BIN = triton.next_power_of_2(pooled * pooled)
    BLOCK_C = max(1, min(triton.next_power_of_2(C), 4096 // BLOCK_BIN))
    meta = {"POOLED": pooled, "SR": sampling_ratio, "BLOCK_C": BLOCK_C, "BLOCK_BIN": BLOCK_BIN, "num_warps": 4}
    grid = (K,)
    roi_align_kernel[grid](features, rois, out, C, H, W, spatial_scale, **meta)
    return out
