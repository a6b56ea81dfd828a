"""Global RX anomaly scores r(x) = (x - mu)^T C^-1 (x - mu) for every pixel of a BIP cube."""
import torch
import triton
import triton.language as tl

BLOCK_P = 64    # pixels per program
BLOCK_N = 128   # output bands of z = (x - mu) C^-1 per chunk
BLOCK_K = 32    # input bands per step


@triton.jit
def _rx_scores(x, mu, cinv, out, n_pix, n_bands,
               BLOCK_P: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pix = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    pix_ok = pix < n_pix
    rows = x + pix[:, None] * n_bands
    score = tl.zeros([BLOCK_P], dtype=tl.float32)
    for n0 in range(0, n_bands, BLOCK_N):
        cols = n0 + tl.arange(0, BLOCK_N)
        col_ok = cols < n_bands
        z = tl.zeros([BLOCK_P, BLOCK_N], dtype=tl.float32)
        for k0 in range(0, n_bands, BLOCK_K):
            ks = k0 + tl.arange(0, BLOCK_K)
            k_ok = ks < n_bands
            yk = tl.load(rows + ks[None, :], mask=pix_ok[:, None] & k_ok[None, :], other=0.0) \
                - tl.load(mu + ks, mask=k_ok, other=0.0)[None, :]
            yk = tl.where(k_ok[None, :], yk, 0.0)
            c = tl.load(cinv + ks[:, None] * n_bands + cols[None, :],
                        mask=k_ok[:, None] & col_ok[None, :], other=0.0)
            z = tl.dot(yk, c, z, input_precision="tf32x3")
        yn = tl.load(rows + cols[None, :], mask=pix_ok[:, None] & col_ok[None, :], other=0.0) \
            - tl.load(mu + cols, mask=col_ok, other=0.0)[None, :]
        score += tl.sum(z * yn, axis=1)
    tl.store(out + pix, score, mask=pix_ok)


def run(x: torch.Tensor, mu: torch.Tensor, cinv: torch.Tensor) -> torch.Tensor:
    h, w, b = x.shape
    x = x.contiguous()
    out = torch.empty((h, w), device=x.device, dtype=torch.float32)
    n = h * w
    _rx_scores[(triton.cdiv(n, BLOCK_P),)](x, mu, cinv, out, n, b,
                                           BLOCK_P=BLOCK_P, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=8)
    return out
