"""RMSNorm + dynamic per-token int8 quant: each program normalises and quantises a chunk of 128 consecutive rows."""
import torch
import triton
import triton.language as tl

ROWS_PER_PROGRAM = 128


@triton.jit
def rms_norm_dynamic_quant_kernel(x_ptr, w_ptr, q_ptr, scale_ptr, T, H, eps,
                                  ROWS: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    cmask = cols < H
    w = tl.load(w_ptr + cols, mask=cmask, other=0.0).to(tl.float32)
    for r in range(0, ROWS):
        row = tl.program_id(0) * ROWS + r
        if row < T:
            x = tl.load(x_ptr + row * H + cols, mask=cmask, other=0.0).to(tl.float32)
            y = x * tl.rsqrt(tl.sum(x * x) / H + eps) * w
            scale = tl.maximum(tl.max(tl.abs(y)) / 127.0, 1e-10)
            q = tl.minimum(tl.maximum(tl.floor(y / scale + 0.5), -128.0), 127.0)
            tl.store(q_ptr + row * H + cols, q.to(tl.int8), mask=cmask)
            tl.store(scale_ptr + row, scale)


def run(x: torch.Tensor, w: torch.Tensor):
    T, H = x.shape
    q = torch.empty((T, H), dtype=torch.int8, device=x.device)
    scale = torch.empty((T, 1), dtype=torch.float32, device=x.device)
    grid = (triton.cdiv(T, ROWS_PER_PROGRAM),)
    rms_norm_dynamic_quant_kernel[grid](x, w, q, scale, T, H, 1e-6, ROWS=ROWS_PER_PROGRAM,
                                        BLOCK=triton.next_power_of_2(H), num_warps=8)
    return q, scale
