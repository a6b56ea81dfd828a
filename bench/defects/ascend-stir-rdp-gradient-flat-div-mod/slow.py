"""Relative Difference Prior gradient (STIR RelativeDifferencePrior::compute_gradient), 3x3x3 neighbourhood."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 2048


@triton.jit
def _rdp_grad_kernel(img_ptr, kap_ptr, w_ptr, grad_ptr, Z, Y, X, n, beta, gamma, eps,
                     BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        j = blk * BLOCK + tl.arange(0, BLOCK)
        m = j < n
        # voxel coordinates of the flat index, as the CUDA kernel's 3-D thread index
        xi = j % X
        yi = (j // X) % Y
        zi = j // (X * Y)
        xj = tl.load(img_ptr + j, mask=m, other=0.0)
        kj = tl.load(kap_ptr + j, mask=m, other=0.0)
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for kz in tl.static_range(3):
            for ky in tl.static_range(3):
                for kx in tl.static_range(3):
                    if kz * 9 + ky * 3 + kx != 13:
                        w = tl.load(w_ptr + kz * 9 + ky * 3 + kx)
                        zz = zi + (kz - 1)
                        yy = yi + (ky - 1)
                        xx = xi + (kx - 1)
                        valid = m & (zz >= 0) & (zz < Z) & (yy >= 0) & (yy < Y) & (xx >= 0) & (xx < X)
                        nb = (zz * Y + yy) * X + xx
                        xn = tl.load(img_ptr + nb, mask=valid, other=0.0)
                        kn = tl.load(kap_ptr + nb, mask=valid, other=0.0)
                        d = xj - xn
                        ad = tl.abs(d)
                        den = xj + xn + gamma * ad + eps
                        acc += w * kn * d * (gamma * ad + xj + 3.0 * xn + 2.0 * eps) / (den * den)
        tl.store(grad_ptr + j, beta * kj * acc, mask=m)


def run(img: torch.Tensor, kappa: torch.Tensor, weights: torch.Tensor, beta: float, gamma: float,
        eps: float) -> torch.Tensor:
    Z, Y, X = img.shape
    grad = torch.empty_like(img)
    n = img.numel()
    grid = (min(_VECTOR_CORES, triton.cdiv(n, _BLOCK)),)
    _rdp_grad_kernel[grid](img, kappa, weights, grad, Z, Y, X, n, beta, gamma, eps, BLOCK=_BLOCK)
    return grad
