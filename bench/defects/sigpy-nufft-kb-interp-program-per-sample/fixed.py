"""Forward-NUFFT Kaiser-Bessel interpolation (SigPy interpolate): oversampled coil k-space -> radial samples."""
import torch
import triton
import triton.language as tl

BLOCK_M = 32


@triton.jit
def _kaiser_bessel(u, beta):
    # SigPy's kernel: I0(beta * sqrt(1 - u^2)), Abramowitz-Stegun 9.8.1 / 9.8.2
    x = beta * tl.sqrt(tl.maximum(1.0 - u * u, 0.0))
    t2 = (x / 3.75) * (x / 3.75)
    small = 1.0 + t2 * (3.5156229 + t2 * (3.0899424 + t2 * (1.2067492 + t2 * (0.2659732 + t2 * (
        0.0360768 + t2 * 0.0045813)))))
    xl = tl.maximum(x, 3.75)
    r = 3.75 / xl
    large = tl.exp(xl) / tl.sqrt(xl) * (0.39894228 + r * (0.01328592 + r * (0.00225319 + r * (-0.00157565 + r * (
        0.00916281 + r * (-0.02057706 + r * (0.02635537 + r * (-0.01647633 + r * 0.00392377))))))))
    return tl.where(x < 3.75, small, large)


@triton.jit
def _kb_interp(grid, coord, out, n_coils, n_samples, G, beta, W: tl.constexpr, BLOCK_M: tl.constexpr):
    m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    ok = m < n_samples
    ky, kx = tl.split(tl.load(coord + m[:, None] * 2 + tl.arange(0, 2)[None, :], mask=ok[:, None], other=0.0))
    tap = tl.arange(0, W * W)
    gy = tl.floor(ky - W / 2).to(tl.int32)[:, None] + 1 + (tap // W)[None, :]
    gx = tl.floor(kx - W / 2).to(tl.int32)[:, None] + 1 + (tap % W)[None, :]
    w = _kaiser_bessel((gy - ky[:, None]) / (W / 2), beta) * _kaiser_bessel((gx - kx[:, None]) / (W / 2), beta)
    gy = (gy % G + G) % G
    gx = (gx % G + G) % G
    src = (gy * G + gx)[:, :, None] * 2 + tl.arange(0, 2)[None, None, :]
    dst = m[:, None] * 2 + tl.arange(0, 2)[None, :]
    for c in range(n_coils):
        v = tl.load(grid + c * G * G * 2 + src, mask=ok[:, None, None], other=0.0)
        tl.store(out + c * n_samples * 2 + dst, tl.sum(w[:, :, None] * v, axis=1), mask=ok[:, None])


def run(grid: torch.Tensor, coord: torch.Tensor, width: int, beta: float) -> torch.Tensor:
    n_coils, G = grid.shape[0], grid.shape[1]
    n_samples = coord.shape[0]
    out = torch.empty(n_coils, n_samples, 2, device=grid.device, dtype=torch.float32)
    _kb_interp[(triton.cdiv(n_samples, BLOCK_M),)](grid, coord, out, n_coils, n_samples, G, beta,
                                                   W=width, BLOCK_M=BLOCK_M, num_warps=4)
    return out
