"""DEM forward model and chi-square per pixel: dn_reg = K @ DEM, chisq = mean_c ((dn_reg - dn) / edn)^2."""
import torch
import triton
import triton.language as tl

BLOCK_P = 64


@triton.jit
def _dem_forward_chisq(dem, resp, dn, edn, dn_reg, chisq, nt, npix,
                       NC: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_P: tl.constexpr):
    pix = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    p_ok = pix < npix
    t = tl.arange(0, BLOCK_T)
    t_ok = t < nt
    d = tl.load(dem + pix[:, None] * nt + t[None, :], mask=p_ok[:, None] & t_ok[None, :], other=0.0)
    chi = tl.zeros([BLOCK_P], dtype=tl.float32)
    for c in tl.static_range(NC):
        k = tl.load(resp + c * nt + t, mask=t_ok, other=0.0)
        model = tl.sum(d * k[None, :], axis=1)
        obs = tl.load(dn + pix * NC + c, mask=p_ok, other=0.0)
        err = tl.load(edn + pix * NC + c, mask=p_ok, other=1.0)
        tl.store(dn_reg + pix * NC + c, model, mask=p_ok)
        r = (model - obs) / err
        chi += r * r
    tl.store(chisq + pix, chi / NC, mask=p_ok)


def run(dem: torch.Tensor, K: torch.Tensor, dn: torch.Tensor, edn: torch.Tensor) -> tuple:
    ny, nx, nt = dem.shape
    nc = K.shape[0]
    npix = ny * nx
    dn_reg = torch.empty(ny, nx, nc, device=dem.device, dtype=torch.float32)
    chisq = torch.empty(ny, nx, device=dem.device, dtype=torch.float32)
    _dem_forward_chisq[(triton.cdiv(npix, BLOCK_P),)](dem, K, dn, edn, dn_reg, chisq, nt, npix,
                                                     NC=nc, BLOCK_T=triton.next_power_of_2(nt),
                                                     BLOCK_P=BLOCK_P, num_warps=4)
    return dn_reg, chisq
