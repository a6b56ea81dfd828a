"""Degree-3 spherical-harmonics colours of 3-D Gaussians (gsplat spherical_harmonics forward)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _sh_basis(x, y, z, k):
    xx = x * x
    yy = y * y
    zz = z * z
    b = tl.where(k == 0, 0.28209479177387814, 0.0)
    b = tl.where(k == 1, -0.4886025119029199 * y, b)
    b = tl.where(k == 2, 0.4886025119029199 * z, b)
    b = tl.where(k == 3, -0.4886025119029199 * x, b)
    b = tl.where(k == 4, 1.0925484305920792 * x * y, b)
    b = tl.where(k == 5, -1.0925484305920792 * y * z, b)
    b = tl.where(k == 6, 0.31539156525252005 * (2.0 * zz - xx - yy), b)
    b = tl.where(k == 7, -1.0925484305920792 * x * z, b)
    b = tl.where(k == 8, 0.5462742152960396 * (xx - yy), b)
    b = tl.where(k == 9, -0.5900435899266435 * y * (3.0 * xx - yy), b)
    b = tl.where(k == 10, 2.890611442640554 * x * y * z, b)
    b = tl.where(k == 11, -0.4570457994644658 * y * (4.0 * zz - xx - yy), b)
    b = tl.where(k == 12, 0.3731763325901154 * z * (2.0 * zz - 3.0 * xx - 3.0 * yy), b)
    b = tl.where(k == 13, -0.4570457994644658 * x * (4.0 * zz - xx - yy), b)
    b = tl.where(k == 14, 1.445305721320277 * z * (xx - yy), b)
    b = tl.where(k == 15, -0.5900435899266435 * x * (xx - 3.0 * yy), b)
    return b


@triton.jit
def _sh_colors_fwd(means, campos, coeffs, colors, N, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    n = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    live = n < N
    dx = tl.load(means + n * 3 + 0, mask=live, other=1.0) - tl.load(campos + 0)
    dy = tl.load(means + n * 3 + 1, mask=live, other=0.0) - tl.load(campos + 1)
    dz = tl.load(means + n * 3 + 2, mask=live, other=0.0) - tl.load(campos + 2)
    inv = 1.0 / tl.sqrt(dx * dx + dy * dy + dz * dz)
    k = tl.arange(0, 16)
    basis = _sh_basis((dx * inv)[:, None], (dy * inv)[:, None], (dz * inv)[:, None], k[None, :])
    c = tl.arange(0, 4)
    offs = n[:, None, None] * 48 + k[None, :, None] * 3 + c[None, None, :]
    cmask = live[:, None, None] & (c[None, None, :] < 3)
    coef = tl.load(coeffs + offs, mask=cmask, other=0.0)
    rgb = tl.sum(basis[:, :, None] * coef, axis=1)
    rgb = tl.maximum(rgb + 0.5, 0.0)
    out_mask = live[:, None] & (c[None, :] < 3)
    tl.store(colors + n[:, None] * 3 + c[None, :], rgb, mask=out_mask)


def run(means: torch.Tensor, campos: torch.Tensor, coeffs: torch.Tensor) -> torch.Tensor:
    N = means.shape[0]
    colors = torch.empty((N, 3), device=means.device, dtype=torch.float32)
    BLOCK_N = 64
    _sh_colors_fwd[(triton.cdiv(N, BLOCK_N),)](means, campos, coeffs, colors, N, BLOCK_N=BLOCK_N, num_warps=4)
    return colors
