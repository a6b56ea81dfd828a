"""Two-range NASA-7 polynomials: cp/R, h/RT and s/R of every species in every cell."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK_CELLS = 32


@triton.jit
def _nasa7_thermo(T, coeffs, t_mid, cp_out, h_out, s_out, CELLS, KSP,
                  BC: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    sp = tl.arange(0, BK)
    smask = sp < KSP
    tm = tl.load(t_mid + sp, mask=smask, other=1000.0)
    # both coefficient sets as contiguous species rows: row 0..6 low range, 7..13 high range
    lo0 = tl.load(coeffs + sp, mask=smask, other=0.0)
    lo1 = tl.load(coeffs + KSP + sp, mask=smask, other=0.0)
    lo2 = tl.load(coeffs + 2 * KSP + sp, mask=smask, other=0.0)
    lo3 = tl.load(coeffs + 3 * KSP + sp, mask=smask, other=0.0)
    lo4 = tl.load(coeffs + 4 * KSP + sp, mask=smask, other=0.0)
    lo5 = tl.load(coeffs + 5 * KSP + sp, mask=smask, other=0.0)
    lo6 = tl.load(coeffs + 6 * KSP + sp, mask=smask, other=0.0)
    hi0 = tl.load(coeffs + 7 * KSP + sp, mask=smask, other=0.0)
    hi1 = tl.load(coeffs + 8 * KSP + sp, mask=smask, other=0.0)
    hi2 = tl.load(coeffs + 9 * KSP + sp, mask=smask, other=0.0)
    hi3 = tl.load(coeffs + 10 * KSP + sp, mask=smask, other=0.0)
    hi4 = tl.load(coeffs + 11 * KSP + sp, mask=smask, other=0.0)
    hi5 = tl.load(coeffs + 12 * KSP + sp, mask=smask, other=0.0)
    hi6 = tl.load(coeffs + 13 * KSP + sp, mask=smask, other=0.0)
    for blk in range(pid, tl.cdiv(CELLS, BC), nprog):
        cell = blk * BC + tl.arange(0, BC)
        cmask = cell < CELLS
        mask = cmask[:, None] & smask[None, :]
        t = tl.load(T + cell, mask=cmask, other=1000.0)
        log_t = tl.log(t)
        inv_t = 1.0 / t
        hot = t[:, None] > tm[None, :]
        a0 = tl.where(hot, hi0[None, :], lo0[None, :])
        a1 = tl.where(hot, hi1[None, :], lo1[None, :])
        a2 = tl.where(hot, hi2[None, :], lo2[None, :])
        a3 = tl.where(hot, hi3[None, :], lo3[None, :])
        a4 = tl.where(hot, hi4[None, :], lo4[None, :])
        a5 = tl.where(hot, hi5[None, :], lo5[None, :])
        a6 = tl.where(hot, hi6[None, :], lo6[None, :])
        tt = t[:, None]
        cp = a0 + tt * (a1 + tt * (a2 + tt * (a3 + tt * a4)))
        h = a0 + tt * (a1 * 0.5 + tt * (a2 * (1.0 / 3.0) + tt * (a3 * 0.25 + tt * (a4 * 0.2)))) \
            + a5 * inv_t[:, None]
        s = a0 * log_t[:, None] + tt * (a1 + tt * (a2 * 0.5 + tt * (a3 * (1.0 / 3.0) + tt * (a4 * 0.25)))) + a6
        offs = cell[:, None] * KSP + sp[None, :]
        tl.store(cp_out + offs, cp, mask=mask)
        tl.store(h_out + offs, h, mask=mask)
        tl.store(s_out + offs, s, mask=mask)


def run(T: torch.Tensor, coeffs: torch.Tensor, t_mid: torch.Tensor) -> tuple:
    cells = T.shape[0]
    ksp = t_mid.shape[0]
    cp = torch.empty((cells, ksp), device=T.device, dtype=T.dtype)
    h = torch.empty((cells, ksp), device=T.device, dtype=T.dtype)
    s = torch.empty((cells, ksp), device=T.device, dtype=T.dtype)
    BK = triton.next_power_of_2(ksp)
    grid = (min(_VECTOR_CORES, triton.cdiv(cells, BLOCK_CELLS)),)
    _nasa7_thermo[grid](T, coeffs, t_mid, cp, h, s, cells, ksp, BC=BLOCK_CELLS, BK=BK)
    return cp, h, s
