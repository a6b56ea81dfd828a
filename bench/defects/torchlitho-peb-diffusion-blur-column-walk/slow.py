"""PEB acid diffusion (separable Gaussian, zero outside the clip) followed by the resist sigmoid."""
import torch
import triton
import triton.language as tl

BLOCK = 512


@triton.jit
def _diffuse_rows(src, dst, taps, H, W, TAPS: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    row = tl.program_id(1)
    img = tl.program_id(2)
    line = src + img * H * W + row * W
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for t in range(0, TAPS):
        c = cols + (t - TAPS // 2)
        v = tl.load(line + c, mask=(c >= 0) & (c < W), other=0.0)
        acc += tl.load(taps + t) * v
    tl.store(dst + img * H * W + row * W + cols, acc, mask=cols < W)


@triton.jit
def _diffuse_cols_develop(src, dst, taps, H, W, theta_z, i_th,
                          TAPS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    col = tl.program_id(1)
    img = tl.program_id(2)
    plane = src + img * H * W
    row_ok = rows < H
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for t in range(0, TAPS):
        r = rows + (t - TAPS // 2)
        v = tl.load(plane + r * W + col, mask=(r >= 0) & (r < H), other=0.0)
        acc += tl.load(taps + t) * v
    z = tl.sigmoid(theta_z * (acc - i_th))
    tl.store(dst + img * H * W + rows * W + col, z, mask=row_ok)


def run(aerial: torch.Tensor, taps: torch.Tensor, theta_z: float, i_th: float) -> torch.Tensor:
    B, H, W = aerial.shape
    n_taps = taps.numel()
    rows_done = torch.empty_like(aerial)
    resist = torch.empty_like(aerial)
    grid = (triton.cdiv(W, BLOCK), H, B)
    _diffuse_rows[grid](aerial, rows_done, taps, H, W, TAPS=n_taps, BLOCK=BLOCK, num_warps=4)
    _diffuse_cols_develop[(triton.cdiv(H, BLOCK), W, B)](rows_done, resist, taps, H, W, theta_z, i_th,
                                                         TAPS=n_taps, BLOCK=BLOCK, num_warps=4)
    return resist
