"""SGPR / Nystrom features Phi = K(X, Z) @ inv_root with an RBF ScaleKernel, K(X, Z) evaluated on the fly."""
import torch
import triton
import triton.language as tl


@triton.jit
def _inducing_features(x, z, inv_root, out, m, inv_ls, outputscale,
                       D: tl.constexpr, BLOCK_Z: tl.constexpr, BLOCK_O: tl.constexpr):
    i = tl.program_id(0)
    zi = tl.arange(0, BLOCK_Z)
    z_ok = zi < m
    d2 = tl.zeros([BLOCK_Z], dtype=tl.float32)
    for k in tl.static_range(D):
        diff = (tl.load(x + i * D + k) - tl.load(z + zi * D + k, mask=z_ok, other=0.0)) * inv_ls
        d2 += diff * diff
    kxz = tl.where(z_ok, outputscale * tl.exp(-0.5 * d2), 0.0)
    for start in range(0, m, BLOCK_O):
        cols = start + tl.arange(0, BLOCK_O)
        col_ok = cols < m
        root = tl.load(inv_root + zi[:, None] * m + cols[None, :],
                       mask=z_ok[:, None] & col_ok[None, :], other=0.0)
        tl.store(out + i * m + cols, tl.sum(kxz[:, None] * root, axis=0), mask=col_ok)


def run(x: torch.Tensor, z: torch.Tensor, inv_root: torch.Tensor,
        lengthscale: float, outputscale: float) -> torch.Tensor:
    n, d = x.shape
    m = z.shape[0]
    out = torch.empty(n, m, device=x.device, dtype=torch.float32)
    _inducing_features[(n,)](x, z, inv_root, out, m, 1.0 / lengthscale, outputscale,
                             D=d, BLOCK_Z=triton.next_power_of_2(m), BLOCK_O=16, num_warps=8)
    return out
