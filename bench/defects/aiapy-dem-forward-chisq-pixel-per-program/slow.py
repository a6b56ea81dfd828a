"""DEM forward model and chi-square per pixel: dn_reg = K @ DEM, chisq = mean_c ((dn_reg - dn) / edn)^2."""
import torch
import triton
import triton.language as tl


@triton.jit
def _dem_forward_chisq(dem, resp, dn, edn, dn_reg, chisq, nt,
                       NC: tl.constexpr, BLOCK_T: tl.constexpr):
    pix = tl.program_id(0)
    t = tl.arange(0, BLOCK_T)
    t_ok = t < nt
    d = tl.load(dem + pix * nt + t, mask=t_ok, other=0.0)
    chi = 0.0
    for c in tl.static_range(NC):
        k = tl.load(resp + c * nt + t, mask=t_ok, other=0.0)
        model = tl.sum(d * k, axis=0)
        obs = tl.load(dn + pix * NC + c)
        err = tl.load(edn + pix * NC + c)
        tl.store(dn_reg + pix * NC + c, model)
        r = (model - obs) / err
        chi += r * r
    tl.store(chisq + pix, chi / NC)


def run(dem: torch.Tensor, K: torch.Tensor, dn: torch.Tensor, edn: torch.Tensor) -> tuple:
    ny, nx, nt = dem.shape
    nc = K.shape[0]
    npix = ny * nx
    dn_reg = torch.empty(ny, nx, nc, device=dem.device, dtype=torch.float32)
    chisq = torch.empty(ny, nx, device=dem.device, dtype=torch.float32)
    _dem_forward_chisq[(npix,)](dem, K, dn, edn, dn_reg, chisq, nt,
                                NC=nc, BLOCK_T=triton.next_power_of_2(nt), num_warps=4)
    return dn_reg, chisq
