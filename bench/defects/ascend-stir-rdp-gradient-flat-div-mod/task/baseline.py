"""Relative Difference Prior gradient (STIR RelativeDifferencePrior::compute_gradient), 3x3x3 neighbourhood."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 2048


@triton.jit
def _rdp_grad_kernel(img_ptr, kap_ptr, w_ptr, grad_ptr, Z, Y, X, n_yblk, beta, gamma, eps,
                     BY: tl.constexpr, BX: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for t in range(pid, Z * n_yblk, nprog):
        # one plane z, BY rows y, the whole row x
        zi = t // n_yblk
        yi = (t % n_yblk) * BY + tl.arange(0, BY)[:, None]
        xi = tl.arange(0, BX)[None, :]
        m = (yi < Y) & (xi < X)
        j = (zi * Y + yi) * X + xi
        xj = tl.load(img_ptr + j, mask=m, other=0.0)
        kj = tl.load(kap_ptr + j, mask=m, other=0.0)
        acc = tl.zeros([BY, BX], dtype=tl.float32)
        for kz in tl.static_range(3):
            zz = zi + (kz - 1)
            if (zz >= 0) & (zz < Z):
                for ky in tl.static_range(3):
                    for kx in tl.static_range(3):
                        if kz * 9 + ky * 3 + kx != 13:
                            w = tl.load(w_ptr + kz * 9 + ky * 3 + kx)
                            yy = yi + (ky - 1)
                            xx = xi + (kx - 1)
                            valid = m & (yy >= 0) & (yy < Y) & (xx >= 0) & (xx < X)
                            nb = j + ((kz - 1) * Y + (ky - 1)) * X + (kx - 1)
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
    BX = triton.next_power_of_2(X)
    BY = max(1, _BLOCK // BX)
    n_yblk = triton.cdiv(Y, BY)
    grid = (min(_VECTOR_CORES, Z * n_yblk),)
    _rdp_grad_kernel[grid](img, kappa, weights, grad, Z, Y, X, n_yblk, beta, gamma, eps, BY=BY, BX=BX)
    return grad
