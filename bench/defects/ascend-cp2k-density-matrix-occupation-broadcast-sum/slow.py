"""CP2K density matrix: P[m, n] = sum_i f_i C[i, m] C[i, n] (c is MO-major, as CP2K stores it)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK_M = 32
BLOCK_N = 32
BLOCK_I = 8


@triton.jit
def _density_matrix(c, occ, p, nmo, nao, stride_c, stride_p,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_I: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    tiles_n = tl.cdiv(nao, BLOCK_N)
    for tile in range(pid, tl.cdiv(nao, BLOCK_M) * tiles_n, nprog):
        rm = (tile // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = (tile % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
        mm = rm < nao
        mn = rn < nao
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for i0 in range(0, nmo, BLOCK_I):
            ri = i0 + tl.arange(0, BLOCK_I)
            mi = ri < nmo
            f = tl.load(occ + ri, mask=mi, other=0.0)
            cm = tl.load(c + ri[:, None] * stride_c + rm[None, :], mask=mi[:, None] & mm[None, :], other=0.0)
            cn = tl.load(c + ri[:, None] * stride_c + rn[None, :], mask=mi[:, None] & mn[None, :], other=0.0)
            cm = cm * f[:, None]
            acc += tl.sum(cm[:, :, None] * cn[:, None, :], axis=0)
        tl.store(p + rm[:, None] * stride_p + rn[None, :], acc, mask=mm[:, None] & mn[None, :])


def run(c: torch.Tensor, occ: torch.Tensor) -> torch.Tensor:
    nmo, nao = c.shape
    p = torch.empty((nao, nao), device=c.device, dtype=c.dtype)
    tiles = triton.cdiv(nao, BLOCK_M) * triton.cdiv(nao, BLOCK_N)
    _density_matrix[(min(_VECTOR_CORES, tiles),)](c, occ, p, nmo, nao, c.stride(0), p.stride(0),
                                                  BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_I=BLOCK_I)
    return p
