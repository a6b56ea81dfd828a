"""PISM enthalpy model: one explicit column step (conduction with the cold/temperate switch, upwind
vertical advection, strain heating, basal heat flux, surface Dirichlet) on column-contiguous 3-D fields."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK_COLS = 16

RHO, C_ICE, K_ICE = 910.0, 2009.0, 2.10
T_MELT, T_0, BETA, GRAV = 273.15, 223.15, 7.9e-8, 9.81


@triton.jit
def _enthalpy_step(E, W, SIG, H, ES, G, OUT, n_cols, Mz, dz, dt,
                   e_pmp_surf, cb, k_cold, k_temp, inv_rho,
                   BLOCK_COLS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    inv_dz = 1.0 / dz
    for blk in range(pid, tl.cdiv(n_cols, BLOCK_COLS), nprog):
        cols = blk * BLOCK_COLS + tl.arange(0, BLOCK_COLS)
        cmask = cols < n_cols
        h = tl.load(H + cols, mask=cmask, other=0.0)
        es = tl.load(ES + cols, mask=cmask, other=0.0)
        gf = tl.load(G + cols, mask=cmask, other=0.0)
        col = cols * Mz
        # march up the columns level by level, as PISM's column systems do
        e = tl.load(E + col, mask=cmask, other=0.0)
        ec = tl.where(0.0 < h, e, es)
        em = ec
        for k in range(Mz):
            z = k * dz
            e_up = tl.load(E + col + k + 1, mask=cmask & (k + 1 < Mz), other=0.0)
            w = tl.load(W + col + k, mask=cmask, other=0.0)
            sig = tl.load(SIG + col + k, mask=cmask, other=0.0)

            ice = z < h
            ep = tl.where(z + dz < h, e_up, es)
            e_pmp = e_pmp_surf - cb * (h - z)
            kc = tl.where(ec < e_pmp, k_cold, k_temp)
            kp = tl.where(ep < e_pmp + cb * dz, k_cold, k_temp)
            km = tl.where(em < e_pmp - cb * dz, k_cold, k_temp)
            flux_up = 0.5 * (kc + kp) * (ep - ec) * inv_dz
            flux_dn = tl.where(k == 0, -gf, 0.5 * (kc + km) * (ec - em) * inv_dz)
            adv = tl.where(w > 0, w * (ec - em), w * (ep - ec)) * inv_dz
            new = ec + dt * ((flux_up - flux_dn) * (inv_rho * inv_dz) - adv + sig * inv_rho)
            tl.store(OUT + col + k, tl.where(ice, new, es), mask=cmask)
            em = ec
            ec = ep


def run(E, w, sigma, H, e_s, G, dz: float, dt: float) -> torch.Tensor:
    my, mx, mz = E.shape
    n_cols = my * mx
    out = torch.empty_like(E)
    grid = (min(_VECTOR_CORES, triton.cdiv(n_cols, BLOCK_COLS)),)
    _enthalpy_step[grid](E, w, sigma, H, e_s, G, out, n_cols, mz, float(dz), float(dt),
                         C_ICE * (T_MELT - T_0), C_ICE * BETA * RHO * GRAV, K_ICE / C_ICE, 0.1 * K_ICE / C_ICE,
                         1.0 / RHO, BLOCK_COLS=BLOCK_COLS)
    return out
