"""ecRad shortwave adding method for independent columns (adding_ica_sw) over blocks of columns x g-points."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_COLS_PER_TILE = 8


@triton.jit
def _top_kernel(toa, flux_dn_dif, flux_dn_dir, ncol, nlay, ng, BC: tl.constexpr, BG: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    g = tl.arange(0, BG)
    for blk in range(pid, tl.cdiv(ncol, BC), nprog):
        c = blk * BC + tl.arange(0, BC)
        mask = (c < ncol)[:, None] & (g < ng)[None, :]
        sfc = c[:, None] * ng + g[None, :]
        lev = c[:, None] * ((nlay + 1) * ng) + g[None, :]
        fdir = tl.load(toa + sfc, mask=mask, other=0.0)
        tl.store(flux_dn_dir + lev, fdir, mask=mask)
        tl.store(flux_dn_dif + lev, tl.zeros([BC, BG], dtype=tl.float32), mask=mask)


@triton.jit
def _direct_step_kernel(tdir_dir, flux_dn_dir, ncol, nlay, ng, l,
                        BC: tl.constexpr, BG: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    g = tl.arange(0, BG)
    for blk in range(pid, tl.cdiv(ncol, BC), nprog):
        c = blk * BC + tl.arange(0, BC)
        mask = (c < ncol)[:, None] & (g < ng)[None, :]
        lay = c[:, None] * (nlay * ng) + g[None, :]
        lev = c[:, None] * ((nlay + 1) * ng) + g[None, :]
        fdir = tl.load(flux_dn_dir + lev + l * ng, mask=mask, other=0.0)
        fdir = fdir * tl.load(tdir_dir + lay + l * ng, mask=mask, other=0.0)
        tl.store(flux_dn_dir + lev + (l + 1) * ng, fdir, mask=mask)


@triton.jit
def _surface_kernel(alb_dif, alb_dir, flux_dn_dir, albedo, source, ncol, nlay, ng,
                    BC: tl.constexpr, BG: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    g = tl.arange(0, BG)
    for blk in range(pid, tl.cdiv(ncol, BC), nprog):
        c = blk * BC + tl.arange(0, BC)
        mask = (c < ncol)[:, None] & (g < ng)[None, :]
        sfc = c[:, None] * ng + g[None, :]
        lev = c[:, None] * ((nlay + 1) * ng) + g[None, :]
        fdir = tl.load(flux_dn_dir + lev + nlay * ng, mask=mask, other=0.0)
        alb = tl.load(alb_dif + sfc, mask=mask, other=0.0)
        src = tl.load(alb_dir + sfc, mask=mask, other=0.0) * fdir
        tl.store(albedo + lev + nlay * ng, alb, mask=mask)
        tl.store(source + lev + nlay * ng, src, mask=mask)


@triton.jit
def _upward_step_kernel(refl, trans, ref_dir, tdif_dir, flux_dn_dir, albedo, source, inv_den,
                        ncol, nlay, ng, l, BC: tl.constexpr, BG: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    g = tl.arange(0, BG)
    for blk in range(pid, tl.cdiv(ncol, BC), nprog):
        c = blk * BC + tl.arange(0, BC)
        mask = (c < ncol)[:, None] & (g < ng)[None, :]
        lay = c[:, None] * (nlay * ng) + g[None, :]
        lev = c[:, None] * ((nlay + 1) * ng) + g[None, :]
        alb = tl.load(albedo + lev + (l + 1) * ng, mask=mask, other=0.0)
        src = tl.load(source + lev + (l + 1) * ng, mask=mask, other=0.0)
        r = tl.load(refl + lay + l * ng, mask=mask, other=0.0)
        t = tl.load(trans + lay + l * ng, mask=mask, other=0.0)
        rd = tl.load(ref_dir + lay + l * ng, mask=mask, other=0.0)
        tdd = tl.load(tdif_dir + lay + l * ng, mask=mask, other=0.0)
        fd = tl.load(flux_dn_dir + lev + l * ng, mask=mask, other=0.0)
        d = 1.0 / (1.0 - alb * r)
        src = rd * fd + t * (src + alb * tdd * fd) * d
        alb = r + t * t * alb * d
        tl.store(inv_den + lay + l * ng, d, mask=mask)
        tl.store(albedo + lev + l * ng, alb, mask=mask)
        tl.store(source + lev + l * ng, src, mask=mask)


@triton.jit
def _toa_up_kernel(source, flux_up, ncol, nlay, ng, BC: tl.constexpr, BG: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    g = tl.arange(0, BG)
    for blk in range(pid, tl.cdiv(ncol, BC), nprog):
        c = blk * BC + tl.arange(0, BC)
        mask = (c < ncol)[:, None] & (g < ng)[None, :]
        lev = c[:, None] * ((nlay + 1) * ng) + g[None, :]
        tl.store(flux_up + lev, tl.load(source + lev, mask=mask, other=0.0), mask=mask)


@triton.jit
def _downward_step_kernel(refl, trans, tdif_dir, flux_dn_dir, albedo, source, inv_den, flux_up, flux_dn_dif,
                          ncol, nlay, ng, l, BC: tl.constexpr, BG: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    g = tl.arange(0, BG)
    for blk in range(pid, tl.cdiv(ncol, BC), nprog):
        c = blk * BC + tl.arange(0, BC)
        mask = (c < ncol)[:, None] & (g < ng)[None, :]
        lay = c[:, None] * (nlay * ng) + g[None, :]
        lev = c[:, None] * ((nlay + 1) * ng) + g[None, :]
        fdn = tl.load(flux_dn_dif + lev + l * ng, mask=mask, other=0.0)
        t = tl.load(trans + lay + l * ng, mask=mask, other=0.0)
        r = tl.load(refl + lay + l * ng, mask=mask, other=0.0)
        tdd = tl.load(tdif_dir + lay + l * ng, mask=mask, other=0.0)
        fd = tl.load(flux_dn_dir + lev + l * ng, mask=mask, other=0.0)
        d = tl.load(inv_den + lay + l * ng, mask=mask, other=0.0)
        alb_b = tl.load(albedo + lev + (l + 1) * ng, mask=mask, other=0.0)
        src_b = tl.load(source + lev + (l + 1) * ng, mask=mask, other=0.0)
        fdn = (t * fdn + r * src_b + tdd * fd) * d
        tl.store(flux_dn_dif + lev + (l + 1) * ng, fdn, mask=mask)
        tl.store(flux_up + lev + (l + 1) * ng, alb_b * fdn + src_b, mask=mask)


def run(toa, alb_dif, alb_dir, refl, trans, ref_dir, trans_dir_diff, trans_dir_dir) -> tuple:
    ncol, nlay, ng = refl.shape
    lev_shape = (ncol, nlay + 1, ng)
    flux_up = torch.empty(lev_shape, device=refl.device, dtype=refl.dtype)
    flux_dn_dif = torch.empty_like(flux_up)
    flux_dn_dir = torch.empty_like(flux_up)
    albedo = torch.empty_like(flux_up)
    source = torch.empty_like(flux_up)
    inv_den = torch.empty_like(refl)
    BC, BG = _COLS_PER_TILE, triton.next_power_of_2(ng)
    grid = (min(_VECTOR_CORES, triton.cdiv(ncol, BC)),)
    # direct beam, top down
    _top_kernel[grid](toa, flux_dn_dif, flux_dn_dir, ncol, nlay, ng, BC=BC, BG=BG)
    for l in range(nlay):
        _direct_step_kernel[grid](trans_dir_dir, flux_dn_dir, ncol, nlay, ng, l, BC=BC, BG=BG)
    # surface, then albedo and source of everything below each half-level, bottom up
    _surface_kernel[grid](alb_dif, alb_dir, flux_dn_dir, albedo, source, ncol, nlay, ng, BC=BC, BG=BG)
    for l in range(nlay - 1, -1, -1):
        _upward_step_kernel[grid](refl, trans, ref_dir, trans_dir_diff, flux_dn_dir, albedo, source, inv_den,
                                  ncol, nlay, ng, l, BC=BC, BG=BG)
    # diffuse fluxes, top down
    _toa_up_kernel[grid](source, flux_up, ncol, nlay, ng, BC=BC, BG=BG)
    for l in range(nlay):
        _downward_step_kernel[grid](refl, trans, trans_dir_diff, flux_dn_dir, albedo, source, inv_den,
                                    flux_up, flux_dn_dif, ncol, nlay, ng, l, BC=BC, BG=BG)
    return flux_up, flux_dn_dif, flux_dn_dir
