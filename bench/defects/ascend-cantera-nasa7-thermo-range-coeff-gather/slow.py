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
    for blk in range(pid, tl.cdiv(CELLS, BC), nprog):
        cell = blk * BC + tl.arange(0, BC)
        cmask = cell < CELLS
        mask = cmask[:, None] & smask[None, :]
        t = tl.load(T + cell, mask=cmask, other=1000.0)
        log_t = tl.log(t)
        inv_t = 1.0 / t
        # pick the coefficient set once per element: row 0..6 low range, 7..13 high range
        row = tl.where(t[:, None] > tm[None, :], 7, 0)
        base = coeffs + row * KSP + sp[None, :]
        a0 = tl.load(base, mask=mask, other=0.0)
        a1 = tl.load(base + KSP, mask=mask, other=0.0)
        a2 = tl.load(base + 2 * KSP, mask=mask, other=0.0)
        a3 = tl.load(base + 3 * KSP, mask=mask, other=0.0)
        a4 = tl.load(base + 4 * KSP, mask=mask, other=0.0)
        a5 = tl.load(base + 5 * KSP, mask=mask, other=0.0)
        a6 = tl.load(base + 6 * KSP, mask=mask, other=0.0)
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
