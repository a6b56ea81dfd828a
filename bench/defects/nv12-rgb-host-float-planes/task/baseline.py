"""NV12 -> RGB: the kernel reads the uint8 planes and converts to fp32 in registers."""
import torch
import triton
import triton.language as tl


@triton.jit
def _yuv709_to_rgb(yv, u, v):
    yf = (yv - 16.0) * (1.0 / 219.0)
    uf = (u - 128.0) * (1.0 / 224.0)
    vf = (v - 128.0) * (1.0 / 224.0)
    r = yf + 1.5748 * vf
    g = yf - 0.1873 * uf - 0.4681 * vf
    b = yf + 1.8556 * uf
    r = tl.minimum(tl.maximum(r, 0.0), 1.0)
    g = tl.minimum(tl.maximum(g, 0.0), 1.0)
    b = tl.minimum(tl.maximum(b, 0.0), 1.0)
    return r, g, b


@triton.jit
def nv12_rgb_kernel(y_ptr, uv_ptr, out_ptr, H, W, BLOCK: tl.constexpr):
    t = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    HW = H * W
    m = offs < HW
    h = offs // W
    w = offs % W
    c = (h // 2) * W + (w // 2) * 2
    yv = tl.load(y_ptr + t * HW + offs, mask=m, other=16).to(tl.float32)
    u = tl.load(uv_ptr + t * (HW // 2) + c, mask=m, other=128).to(tl.float32)
    v = tl.load(uv_ptr + t * (HW // 2) + c + 1, mask=m, other=128).to(tl.float32)
    r, g, b = _yuv709_to_rgb(yv, u, v)
    base = out_ptr + t * 3 * HW + offs
    tl.store(base, r.to(tl.float16), mask=m)
    tl.store(base + HW, g.to(tl.float16), mask=m)
    tl.store(base + 2 * HW, b.to(tl.float16), mask=m)


def run(y: torch.Tensor, uv: torch.Tensor) -> torch.Tensor:
    T, H, W = y.shape
    out = torch.empty((T, 3, H, W), device=y.device, dtype=torch.float16)
    BLOCK = 1024
    nv12_rgb_kernel[(T, triton.cdiv(H * W, BLOCK))](y, uv, out, H, W, BLOCK=BLOCK)
    return out
