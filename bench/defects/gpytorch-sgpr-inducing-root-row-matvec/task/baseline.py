"""SGPR / Nystrom features Phi = K(X, Z) @ inv_root with an RBF ScaleKernel, K(X, Z) evaluated on the fly."""
import torch
import triton
import triton.language as tl


@triton.jit
def _inducing_features(x, z, inv_root, out, n, m, inv_ls, outputscale,
                       D: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_O: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    cols = tl.program_id(1) * BLOCK_O + tl.arange(0, BLOCK_O)
    row_ok = rows < n
    col_ok = cols < m
    acc = tl.zeros([BLOCK_N, BLOCK_O], dtype=tl.float32)
    for start in range(0, m, BLOCK_K):
        zi = start + tl.arange(0, BLOCK_K)
        z_ok = zi < m
        d2 = tl.zeros([BLOCK_N, BLOCK_K], dtype=tl.float32)
        for k in tl.static_range(D):
            xk = tl.load(x + rows * D + k, mask=row_ok, other=0.0)
            zk = tl.load(z + zi * D + k, mask=z_ok, other=0.0)
            diff = (xk[:, None] - zk[None, :]) * inv_ls
            d2 += diff * diff
        kxz = tl.where(z_ok[None, :], outputscale * tl.exp(-0.5 * d2), 0.0)
        root = tl.load(inv_root + zi[:, None] * m + cols[None, :],
                       mask=z_ok[:, None] & col_ok[None, :], other=0.0)
        acc = tl.dot(kxz, root, acc, input_precision="tf32x3")
    tl.store(out + rows[:, None] * m + cols[None, :], acc, mask=row_ok[:, None] & col_ok[None, :])


def run(x: torch.Tensor, z: torch.Tensor, inv_root: torch.Tensor,
        lengthscale: float, outputscale: float) -> torch.Tensor:
    n, d = x.shape
    m = z.shape[0]
    out = torch.empty(n, m, device=x.device, dtype=torch.float32)
    BLOCK_N, BLOCK_O = 64, 128
    grid = (triton.cdiv(n, BLOCK_N), triton.cdiv(m, BLOCK_O))
    _inducing_features[grid](x, z, inv_root, out, n, m, 1.0 / lengthscale, outputscale,
                             D=d, BLOCK_N=BLOCK_N, BLOCK_O=BLOCK_O, BLOCK_K=32, num_warps=4)
    return out
