"""Global RX anomaly scores r(x) = (x - mu)^T C^-1 (x - mu) for every pixel of a BIP cube."""
import torch
import triton
import triton.language as tl

BLOCK_N = 128   # output bands of z = C^-1 (x - mu) per chunk
BLOCK_K = 32    # input bands per step


@triton.jit
def _rx_scores(x, mu, cinv, out, n_bands,
               BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pix = tl.program_id(0)
    row = x + pix * n_bands
    score = 0.0
    for n0 in range(0, n_bands, BLOCK_N):
        cols = n0 + tl.arange(0, BLOCK_N)
        col_ok = cols < n_bands
        z = tl.zeros([BLOCK_N], dtype=tl.float32)
        for k0 in range(0, n_bands, BLOCK_K):
            ks = k0 + tl.arange(0, BLOCK_K)
            k_ok = ks < n_bands
            yk = tl.load(row + ks, mask=k_ok, other=0.0) - tl.load(mu + ks, mask=k_ok, other=0.0)
            c = tl.load(cinv + cols[:, None] * n_bands + ks[None, :],
                        mask=col_ok[:, None] & k_ok[None, :], other=0.0)
            z += tl.sum(c * yk[None, :], axis=1)
        yn = tl.load(row + cols, mask=col_ok, other=0.0) - tl.load(mu + cols, mask=col_ok, other=0.0)
        score += tl.sum(z * yn, axis=0)
    tl.store(out + pix, score)


def run(x: torch.Tensor, mu: torch.Tensor, cinv: torch.Tensor) -> torch.Tensor:
    h, w, b = x.shape
    x = x.contiguous()
    out = torch.empty((h, w), device=x.device, dtype=torch.float32)
    _rx_scores[(h * w,)](x, mu, cinv, out, b, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=4)
    return out
