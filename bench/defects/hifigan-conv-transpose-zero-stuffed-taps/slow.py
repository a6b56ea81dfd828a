"""HiFi-GAN upsampling ConvTranspose1d as an implicit GEMM over blocks of output rows."""
import torch
import triton
import triton.language as tl


@triton.jit
def _leaky_rows(x_ptr, rows, row_ok, c, c_in, SLOPE: tl.constexpr):
    a = tl.load(x_ptr + rows[:, None] * c_in + c[None, :], mask=row_ok[:, None] & (c[None, :] < c_in), other=0.0)
    a32 = a.to(tl.float32)
    return tl.where(a32 > 0, a32, a32 * SLOPE).to(a.dtype)


@triton.jit
def conv_transpose1d_kernel(x_ptr, w_ptr, bias_ptr, out_ptr, t_in, t_out, c_in, c_out,
                            STRIDE: tl.constexpr, PAD: tl.constexpr, KSIZE: tl.constexpr, SLOPE: tl.constexpr,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    b = tl.program_id(2)
    t = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ck = tl.arange(0, BLOCK_K)
    t_ok = t < t_out
    x_b = x_ptr + b * t_in * c_in
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(KSIZE):
        pos = t + PAD - k
        src = pos // STRIDE
        row_ok = t_ok & (pos >= 0) & (pos % STRIDE == 0) & (src < t_in)
        w_tap = w_ptr + k * c_in * c_out
        for c0 in range(0, c_in, BLOCK_K):
            c = c0 + ck
            a = _leaky_rows(x_b, src, row_ok, c, c_in, SLOPE)
            w = tl.load(w_tap + c[:, None] * c_out + n[None, :],
                        mask=(c[:, None] < c_in) & (n[None, :] < c_out), other=0.0)
            acc = tl.dot(a, w, acc)
    acc += tl.load(bias_ptr + n, mask=n < c_out, other=0.0).to(tl.float32)[None, :]
    out_ptrs = out_ptr + (b * t_out + t)[:, None] * c_out + n[None, :]
    tl.store(out_ptrs, acc.to(out_ptr.dtype.element_ty), mask=t_ok[:, None] & (n[None, :] < c_out))


def run(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, stride: int, padding: int) -> torch.Tensor:
    B, t_in, c_in = x.shape
    k, _, c_out = weight.shape
    t_out = (t_in - 1) * stride - 2 * padding + k
    out = torch.empty((B, t_out, c_out), device=x.device, dtype=x.dtype)
    cfg = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3)
    grid = (triton.cdiv(t_out, cfg["BLOCK_M"]), triton.cdiv(c_out, cfg["BLOCK_N"]), B)
    conv_transpose1d_kernel[grid](x, weight, bias, out, t_in, t_out, c_in, c_out,
                                  STRIDE=stride, PAD=padding, KSIZE=k, SLOPE=0.1, **cfg)
    return out
