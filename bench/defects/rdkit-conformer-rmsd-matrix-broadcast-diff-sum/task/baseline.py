"""All-pairs RMSD of pre-aligned conformers (RDKit GetConformerRMSMatrix, prealigned), batched over molecules."""
import torch
import triton
import triton.language as tl


@triton.jit
def _rmsd_matrix(x, rms, C, K, inv_atoms, BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_K: tl.constexpr):
    mol = tl.program_id(2)
    ri = tl.program_id(0) * BLOCK_I + tl.arange(0, BLOCK_I)
    rj = tl.program_id(1) * BLOCK_J + tl.arange(0, BLOCK_J)
    kk = tl.arange(0, BLOCK_K)
    conf = x + mol * C * K
    cross = tl.zeros([BLOCK_I, BLOCK_J], dtype=tl.float32)
    norm_i = tl.zeros([BLOCK_I], dtype=tl.float32)
    norm_j = tl.zeros([BLOCK_J], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + kk
        xi = tl.load(conf + ri[:, None] * K + k[None, :], mask=(ri[:, None] < C) & (k[None, :] < K), other=0.0)
        xj = tl.load(conf + rj[:, None] * K + k[None, :], mask=(rj[:, None] < C) & (k[None, :] < K), other=0.0)
        # RMSD is unchanged by a common shift: measure from conformer 0 to keep |x|^2 small
        first = tl.load(conf + k, mask=k < K, other=0.0)
        xi = xi - first[None, :]
        xj = xj - first[None, :]
        cross = tl.dot(xi, tl.trans(xj), cross, input_precision="tf32x3")
        norm_i += tl.sum(xi * xi, axis=1)
        norm_j += tl.sum(xj * xj, axis=1)
    d2 = tl.maximum(norm_i[:, None] + norm_j[None, :] - 2.0 * cross, 0.0)
    out = rms + mol * C * C + ri[:, None] * C + rj[None, :]
    tl.store(out, tl.sqrt(d2 * inv_atoms), mask=(ri[:, None] < C) & (rj[None, :] < C))


def run(coords: torch.Tensor) -> torch.Tensor:
    B, C, A, _ = coords.shape
    rms = torch.empty((B, C, C), device=coords.device, dtype=torch.float32)
    BLOCK_I, BLOCK_J, BLOCK_K = 64, 64, 32
    grid = (triton.cdiv(C, BLOCK_I), triton.cdiv(C, BLOCK_J), B)
    _rmsd_matrix[grid](coords, rms, C, 3 * A, 1.0 / A, BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, BLOCK_K=BLOCK_K,
                       num_warps=4, num_stages=3)
    return rms
