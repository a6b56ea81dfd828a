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
    acc = tl.zeros([BLOCK_I, BLOCK_J], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + kk
        xi = tl.load(conf + ri[:, None] * K + k[None, :], mask=(ri[:, None] < C) & (k[None, :] < K), other=0.0)
        xj = tl.load(conf + rj[:, None] * K + k[None, :], mask=(rj[:, None] < C) & (k[None, :] < K), other=0.0)
        d = xi[:, None, :] - xj[None, :, :]
        acc += tl.sum(d * d, axis=2)
    out = rms + mol * C * C + ri[:, None] * C + rj[None, :]
    tl.store(out, tl.sqrt(acc * inv_atoms), mask=(ri[:, None] < C) & (rj[None, :] < C))


def run(coords: torch.Tensor) -> torch.Tensor:
    B, C, A, _ = coords.shape
    rms = torch.empty((B, C, C), device=coords.device, dtype=torch.float32)
    BLOCK_I, BLOCK_J, BLOCK_K = 32, 32, 8
    grid = (triton.cdiv(C, BLOCK_I), triton.cdiv(C, BLOCK_J), B)
    _rmsd_matrix[grid](coords, rms, C, 3 * A, 1.0 / A, BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, BLOCK_K=BLOCK_K,
                       num_warps=4)
    return rms
