"""DCNv2 modulated deformable im2col (mmcv modulated_deformable_im2col), 3x3, stride 1, pad 1."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40  # AI vector cores of an Atlas A2 (910B4)


@triton.jit
def _corner(plane, hf, wf, ok, W, HW):
    idx = (hf * W + wf).to(tl.int32)
    idx = tl.minimum(tl.maximum(idx, 0), HW - 1)
    return tl.where(ok, tl.gather(plane, idx, 0), 0.0)


@triton.jit
def _dcn_im2col(x, offset, mask, cols, n_planes, n_prog, C, H, W,
                BLOCK_HW: tl.constexpr, BLOCK_P: tl.constexpr):
    HW = H * W
    Hf = H * 1.0
    Wf = W * 1.0
    for plane_id in range(tl.program_id(0), n_planes, n_prog):
        b = plane_id // C
        hw = tl.arange(0, BLOCK_HW)
        plane = tl.load(x + plane_id * HW + hw, mask=hw < HW, other=0.0)
        off_b = offset + b * 18 * HW
        mask_b = mask + b * 9 * HW
        out_p = cols + plane_id * 9 * HW
        for p0 in range(0, HW, BLOCK_P):
            pix = p0 + tl.arange(0, BLOCK_P)
            valid = pix < HW
            ho = (pix // W).to(tl.float32)
            wo = (pix % W).to(tl.float32)
            for k in range(9):
                dh = tl.load(off_b + (2 * k) * HW + pix, mask=valid, other=0.0)
                dw = tl.load(off_b + (2 * k + 1) * HW + pix, mask=valid, other=0.0)
                m = tl.load(mask_b + k * HW + pix, mask=valid, other=0.0)
                h = ho + (k // 3 - 1) + dh
                w = wo + (k % 3 - 1) + dw
                h0 = tl.floor(h)
                w0 = tl.floor(w)
                lh = h - h0
                lw = w - w0
                inside = (h > -1.0) & (h < Hf) & (w > -1.0) & (w < Wf)
                top = inside & (h0 >= 0.0)
                bottom = inside & (h0 < Hf - 1.0)
                left = w0 >= 0.0
                right = w0 < Wf - 1.0
                v1 = _corner(plane, h0, w0, top & left, W, HW)
                v2 = _corner(plane, h0, w0 + 1.0, top & right, W, HW)
                v3 = _corner(plane, h0 + 1.0, w0, bottom & left, W, HW)
                v4 = _corner(plane, h0 + 1.0, w0 + 1.0, bottom & right, W, HW)
                val = ((1.0 - lh) * (1.0 - lw) * v1 + (1.0 - lh) * lw * v2
                       + lh * (1.0 - lw) * v3 + lh * lw * v4)
                tl.store(out_p + k * HW + pix, val * m, mask=valid)


def run(x: torch.Tensor, offset: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    B, C, H, W = x.shape
    cols = torch.empty(B, C * 9, H * W, device=x.device, dtype=torch.float32)
    n_planes = B * C
    grid = min(n_planes, NUM_CORES)
    _dcn_im2col[(grid,)](x, offset, mask, cols, n_planes, grid, C, H, W,
                         BLOCK_HW=triton.next_power_of_2(H * W), BLOCK_P=512)
    return cols
