"""ConvNeXt depthwise 7x7 conv on the NHWC layout: each program owns a [16 pixels, 32 channels] tile of one output row, channels (the contiguous axis) as the inner vector axis."""
import torch
import triton
import triton.language as tl


@triton.jit
def dwconv2d_nhwc_kernel(x_ptr, w_ptr, b_ptr, y_ptr, C, H, W,
                         KSIZE: tl.constexpr, PAD: tl.constexpr, BLOCK_W: tl.constexpr, BLOCK_C: tl.constexpr):
    pid_w = tl.program_id(0)
    oh = tl.program_id(1)
    n_cb = tl.cdiv(C, BLOCK_C)
    n = tl.program_id(2) // n_cb
    c = (tl.program_id(2) % n_cb) * BLOCK_C + tl.arange(0, BLOCK_C)
    ow = pid_w * BLOCK_W + tl.arange(0, BLOCK_W)
    cmask = c < C
    img = x_ptr + n.to(tl.int64) * H * W * C
    acc = tl.zeros([BLOCK_W, BLOCK_C], dtype=tl.float32)
    acc += tl.load(b_ptr + c, mask=cmask, other=0.0).to(tl.float32)[None, :]
    for kh in tl.static_range(KSIZE):
        ih = oh + kh - PAD
        row_ok = (ih >= 0) & (ih < H)
        for kw in tl.static_range(KSIZE):
            iw = ow + kw - PAD
            m = (row_ok & (iw >= 0) & (iw < W))[:, None] & cmask[None, :]
            xv = tl.load(img + (ih * W + iw)[:, None] * C + c[None, :], mask=m, other=0.0)
            wv = tl.load(w_ptr + c * (KSIZE * KSIZE) + kh * KSIZE + kw, mask=cmask, other=0.0)
            acc += xv.to(tl.float32) * wv.to(tl.float32)[None, :]
    out = y_ptr + n.to(tl.int64) * H * W * C + (oh * W + ow)[:, None] * C + c[None, :]
    tl.store(out, acc.to(y_ptr.dtype.element_ty), mask=(ow < W)[:, None] & cmask[None, :])


def depthwise_conv2d(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    N, C, H, W = x.shape
    assert x.is_contiguous(memory_format=torch.channels_last)
    ksize = weight.shape[-1]
    y = torch.empty_like(x)  # channels_last, like x
    BLOCK_W, BLOCK_C = 16, 32
    grid = (triton.cdiv(W, BLOCK_W), H, N * triton.cdiv(C, BLOCK_C))
    dwconv2d_nhwc_kernel[grid](x, weight, bias, y, C, H, W, KSIZE=ksize, PAD=ksize // 2,
                               BLOCK_W=BLOCK_W, BLOCK_C=BLOCK_C, num_warps=4)
    return y


def run(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return depthwise_conv2d(x, weight, bias)
