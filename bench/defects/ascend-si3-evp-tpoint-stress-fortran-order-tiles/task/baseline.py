"""SI3 EVP rheology (aEVP), T points of one sub-iteration: strain rates, delta, P/delta and the zs1/zs2 update."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _rhg_evp_t_kernel(u_ice, v_ice, zds, zs1, zs2, strength, zmsk, zdt_m,
                      e1t, e2t, e2u, e1v, r1_e2u, r1_e1v, e1e2f, r1_e1e2t,
                      zs1_out, zs2_out, zpd_out, jpj, jpi,
                      BJ: tl.constexpr, BI: tl.constexpr):
    z1_ecc2 = 0.25                       # 1 / rn_ecc^2
    creepl = 2.0e-9                      # rn_creepl
    rpi = 3.141592653589793
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    ni = jpi - 2
    nj = jpj - 2
    tiles_i = tl.cdiv(ni, BI)
    n_tiles = tiles_i * tl.cdiv(nj, BJ)
    for t in range(pid, n_tiles, nprog):
        jj = 1 + (t // tiles_i) * BJ + tl.arange(0, BJ)        # rows: jj
        ji = 1 + (t % tiles_i) * BI + tl.arange(0, BI)         # columns: ji (contiguous)
        m = (jj < jpj - 1)[:, None] & (ji < jpi - 1)[None, :]
        o = jj[:, None] * jpi + ji[None, :]
        ow = o - 1                                              # (ji-1, jj)
        os = o - jpi                                            # (ji, jj-1)
        osw = o - jpi - 1                                       # (ji-1, jj-1)

        u = tl.load(u_ice + o, mask=m, other=0.0)
        u_w = tl.load(u_ice + ow, mask=m, other=0.0)
        v = tl.load(v_ice + o, mask=m, other=0.0)
        v_s = tl.load(v_ice + os, mask=m, other=0.0)
        rt = tl.load(r1_e1e2t + o, mask=m, other=0.0)
        msk = tl.load(zmsk + o, mask=m, other=0.0)

        # shear**2 at T points from the four surrounding F points
        ds = tl.load(zds + o, mask=m, other=0.0)
        ds_w = tl.load(zds + ow, mask=m, other=0.0)
        ds_s = tl.load(zds + os, mask=m, other=0.0)
        ds_sw = tl.load(zds + osw, mask=m, other=0.0)
        ff = tl.load(e1e2f + o, mask=m, other=0.0)
        ff_w = tl.load(e1e2f + ow, mask=m, other=0.0)
        ff_s = tl.load(e1e2f + os, mask=m, other=0.0)
        ff_sw = tl.load(e1e2f + osw, mask=m, other=0.0)
        zds2 = ((ds * ds * ff + ds_w * ds_w * ff_w) + (ds_s * ds_s * ff_s + ds_sw * ds_sw * ff_sw)) * 0.25 * rt

        # divergence at T points
        eu = tl.load(e2u + o, mask=m, other=0.0)
        eu_w = tl.load(e2u + ow, mask=m, other=0.0)
        ev = tl.load(e1v + o, mask=m, other=0.0)
        ev_s = tl.load(e1v + os, mask=m, other=0.0)
        zdiv = ((eu * u - eu_w * u_w) + (ev * v - ev_s * v_s)) * rt

        # tension at T points
        ru = tl.load(r1_e2u + o, mask=m, other=0.0)
        ru_w = tl.load(r1_e2u + ow, mask=m, other=0.0)
        rv = tl.load(r1_e1v + o, mask=m, other=0.0)
        rv_s = tl.load(r1_e1v + os, mask=m, other=0.0)
        et1 = tl.load(e1t + o, mask=m, other=0.0)
        et2 = tl.load(e2t + o, mask=m, other=0.0)
        zdt = ((u * ru - u_w * ru_w) * et2 * et2 - (v * rv - v_s * rv_s) * et1 * et1) * rt

        # delta and P/delta at T points
        zdelta = tl.sqrt(zdiv * zdiv + (zdt * zdt + zds2) * z1_ecc2) * msk
        p = tl.load(strength + o, mask=m, other=0.0)
        zp_delt = p / (zdelta + creepl) * msk

        # aEVP alpha (Kimmritz et al. 2016), implicit form
        dtm = tl.load(zdt_m + o, mask=m, other=0.0)
        zalph1 = tl.maximum(rpi * tl.sqrt(0.5 * zp_delt * rt * dtm), 50.0)
        z1_alph1 = 1.0 / (zalph1 + 1.0)

        s1 = tl.load(zs1 + o, mask=m, other=0.0)
        s2 = tl.load(zs2 + o, mask=m, other=0.0)
        s1 = (s1 * zalph1 + zp_delt * (zdiv - zdelta)) * z1_alph1 * msk
        s2 = (s2 * zalph1 + zp_delt * (zdt * z1_ecc2)) * z1_alph1 * msk

        oo = (jj[:, None] - 1) * ni + (ji[None, :] - 1)
        tl.store(zs1_out + oo, s1, mask=m)
        tl.store(zs2_out + oo, s2, mask=m)
        tl.store(zpd_out + oo, zp_delt, mask=m)


def run(u_ice, v_ice, zds, zs1, zs2, strength, zmsk, zdt_m,
        e1t, e2t, e2u, e1v, r1_e2u, r1_e1v, e1e2f, r1_e1e2t):
    jpj, jpi = u_ice.shape
    zs1_out = torch.empty((jpj - 2, jpi - 2), device=u_ice.device, dtype=u_ice.dtype)
    zs2_out = torch.empty_like(zs1_out)
    zpd_out = torch.empty_like(zs1_out)
    BJ, BI = 8, 64
    n_tiles = triton.cdiv(jpj - 2, BJ) * triton.cdiv(jpi - 2, BI)
    grid = (min(_VECTOR_CORES, n_tiles),)
    _rhg_evp_t_kernel[grid](u_ice, v_ice, zds, zs1, zs2, strength, zmsk, zdt_m,
                            e1t, e2t, e2u, e1v, r1_e2u, r1_e1v, e1e2f, r1_e1e2t,
                            zs1_out, zs2_out, zpd_out, jpj, jpi, BJ=BJ, BI=BI)
    return zs1_out, zs2_out, zpd_out
