"""Species mass-fraction sources: dYdt = W * (q @ nu) / rho over many reactor cells."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK_CELLS = 64
BLOCK_RXN = 32


@triton.jit
def _species_source(q, nu, mol_weight, rho, out, CELLS, NR, KSP,
                    BM: tl.constexpr, BK: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    sp = tl.arange(0, BN)
    smask = sp < KSP
    w = tl.load(mol_weight + sp, mask=smask, other=0.0)
    for blk in range(pid, tl.cdiv(CELLS, BM), nprog):
        cell = blk * BM + tl.arange(0, BM)
        cmask = cell < CELLS
        acc = tl.zeros([BM, BN], dtype=tl.float32)
        for k0 in range(0, NR, BK):
            rxn = k0 + tl.arange(0, BK)
            kmask = rxn < NR
            qt = tl.load(q + cell[:, None] * NR + rxn[None, :],
                         mask=cmask[:, None] & kmask[None, :], other=0.0)
            nt = tl.load(nu + rxn[:, None] * KSP + sp[None, :],
                         mask=kmask[:, None] & smask[None, :], other=0.0)
            acc = tl.dot(qt, nt, acc, input_precision="ieee")
        r = tl.load(rho + cell, mask=cmask, other=1.0)
        y = acc * w[None, :] / r[:, None]
        tl.store(out + cell[:, None] * KSP + sp[None, :], y, mask=cmask[:, None] & smask[None, :])


def run(q: torch.Tensor, nu: torch.Tensor, mol_weight: torch.Tensor, rho: torch.Tensor) -> torch.Tensor:
    cells, nr = q.shape
    ksp = nu.shape[1]
    out = torch.empty((cells, ksp), device=q.device, dtype=q.dtype)
    BN = max(16, triton.next_power_of_2(ksp))
    grid = (min(_VECTOR_CORES, triton.cdiv(cells, BLOCK_CELLS)),)
    _species_source[grid](q, nu, mol_weight, rho, out, cells, nr, ksp,
                          BM=BLOCK_CELLS, BK=BLOCK_RXN, BN=BN)
    return out
