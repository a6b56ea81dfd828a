"""PatchTST RevIN + patching: the series normalised a block of channels at a time, each block's patches
written as soon as its statistics are known."""
import torch
import triton
import triton.language as tl


@triton.jit
def _series_stats(x_ptr, offs_c, cmask, L, C, eps, BLOCK_L: tl.constexpr):
    offs_t = tl.arange(0, BLOCK_L)
    m = (offs_t[:, None] < L) & cmask[None, :]
    x = tl.load(x_ptr + offs_t[:, None] * C + offs_c[None, :], mask=m, other=0.0)
    mean = tl.sum(x, axis=0) / L
    d = tl.where(m, x - mean[None, :], 0.0)
    var = tl.sum(d * d, axis=0) / L
    return mean, tl.sqrt(var + eps)


@triton.jit
def _write_patches(x_ptr, out_ptr, offs_c, cmask, mean, gain, shift, L, C, n_out,
                   PATCH: tl.constexpr, STRIDE: tl.constexpr, BLOCK_Q: tl.constexpr):
    for q0 in range(0, n_out, BLOCK_Q):
        offs_q = q0 + tl.arange(0, BLOCK_Q)
        qmask = offs_q < n_out
        t = tl.minimum((offs_q // PATCH) * STRIDE + offs_q % PATCH, L - 1)
        m = cmask[:, None] & qmask[None, :]
        x = tl.load(x_ptr + t[None, :] * C + offs_c[:, None], mask=m, other=0.0)
        z = (x - mean[:, None]) * gain[:, None] + shift[:, None]
        tl.store(out_ptr + offs_c[:, None] * n_out + offs_q[None, :], z, mask=m)


@triton.jit
def revin_patchify_kernel(x_ptr, w_ptr, b_ptr, out_ptr, mean_ptr, std_ptr, L, C, n_patches, eps,
                          PATCH: tl.constexpr, STRIDE: tl.constexpr, BLOCK_L: tl.constexpr,
                          BLOCK_C: tl.constexpr, BLOCK_Q: tl.constexpr):
    b = tl.program_id(0)
    x_b = x_ptr + b * L * C
    n_out = n_patches * PATCH
    for c0 in range(0, C, BLOCK_C):
        offs_c = c0 + tl.arange(0, BLOCK_C)
        cmask = offs_c < C
        mean, std = _series_stats(x_b, offs_c, cmask, L, C, eps, BLOCK_L)
        tl.store(mean_ptr + b * C + offs_c, mean, mask=cmask)
        tl.store(std_ptr + b * C + offs_c, std, mask=cmask)
        w = tl.load(w_ptr + offs_c, mask=cmask, other=1.0)
        bias = tl.load(b_ptr + offs_c, mask=cmask, other=0.0)
        _write_patches(x_b, out_ptr + b * C * n_out, offs_c, cmask, mean, w / std, bias, L, C, n_out,
                       PATCH, STRIDE, BLOCK_Q)


def run(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, patch_len: int, stride: int) -> tuple:
    B, L, C = x.shape
    n_patches = (L + stride - patch_len) // stride + 1
    patches = torch.empty((B, C, n_patches, patch_len), device=x.device, dtype=x.dtype)
    mean = torch.empty((B, 1, C), device=x.device, dtype=x.dtype)
    stdev = torch.empty((B, 1, C), device=x.device, dtype=x.dtype)
    BLOCK_C = 16
    meta = {"PATCH": patch_len, "STRIDE": stride, "BLOCK_L": triton.next_power_of_2(L), "BLOCK_C": BLOCK_C,
            "BLOCK_Q": 256}
    grid = (B,)
    revin_patchify_kernel[grid](x, weight, bias, patches, mean, stdev, L, C, n_patches, 1e-5, **meta, num_warps=4)
    return patches, mean, stdev
