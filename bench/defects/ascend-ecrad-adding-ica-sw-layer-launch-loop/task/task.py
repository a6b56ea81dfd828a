"""Shortwave adding method of ecRad for independent columns (radiation_adding_ica_sw.F90, adding_ica_sw).

Every column c and g-point j is an independent two-stream column of nlay layers (layer 0 at the top),
with the layer's diffuse reflectance R and transmittance T, and its direct-beam reflectance Rdir,
direct-to-diffuse transmittance Tdd and direct transmittance Tdir (all per unit direct flux into a
horizontal plane). With the direct flux S at the top of the atmosphere:
    Fdir[0] = S,  Fdir[l+1] = Fdir[l] Tdir[l]                                     (top down)
    A[nlay] = alb_dif,  Q[nlay] = alb_dir Fdir[nlay]                              (surface)
    D[l] = 1 / (1 - A[l+1] R[l])
    A[l] = R[l] + T[l]^2 A[l+1] D[l]
    Q[l] = Rdir[l] Fdir[l] + T[l] (Q[l+1] + A[l+1] Tdd[l] Fdir[l]) D[l]            (bottom up)
    Fdn[0] = 0,  Fup[0] = Q[0]
    Fdn[l+1] = (T[l] Fdn[l] + R[l] Q[l+1] + Tdd[l] Fdir[l]) D[l]
    Fup[l+1] = A[l+1] Fdn[l+1] + Q[l+1]                                            (top down)
Layer fields are [ncol, nlay, ng], surface/TOA fields [ncol, ng], fluxes [ncol, nlay + 1, ng], all
row-major with the g-point fastest (ecRad's (ng, nlev, ncol) Fortran order). Returns
(flux_up, flux_dn_diffuse, flux_dn_direct).
"""
import torch

META = {
    "name": "adding_ica_sw",
    "level": 2,
    "category": "radiative_transfer",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"ncol": 3, "nlay": 5, "ng": 16},
        "ragged": {"ncol": 5, "nlay": 7, "ng": 14},
        "large": {"ncol": 1024, "nlay": 137, "ng": 112},
    },
    "baseline_notes": "One launch of 40 programs (the A2's vector cores); each owns blocks of 8 columns x all "
                      "g-points ([8, next_power_of_2(ng)] tiles) and runs the three vertical sweeps over them "
                      "in-kernel: direct beam down, albedo/source up (written to scratch, carried in "
                      "registers), diffuse fluxes down; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """toa, alb_dif, alb_dir [ncol, ng]; refl, trans, ref_dir, trans_dir_diff, trans_dir_dir [ncol, nlay, ng]."""
    s = META["sizes"][size]
    ncol, nlay, ng = s["ncol"], s["nlay"], s["ng"]
    gen = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lay = (ncol, nlay, ng)
    mu0 = 0.1 + 0.9 * torch.rand(ncol, 1, 1, generator=gen)
    tau = torch.exp(torch.randn(lay, generator=gen) * 1.5 - 4.0)
    ssa = torch.rand(lay, generator=gen)
    back = 0.1 + 0.4 * torch.rand(lay, generator=gen)
    tdir = torch.exp(-tau / mu0)
    scat = (1.0 - tdir) * ssa
    ref_dir, trans_dir_diff = scat * back, scat * (1.0 - back)
    t0 = torch.exp(-1.66 * tau)
    refl = (1.0 - t0) * ssa * back
    trans = t0 + (1.0 - t0) * ssa * (1.0 - back)
    toa = 1361.0 * mu0[:, :, 0] * torch.rand(ncol, ng, generator=gen) * 2.0 / ng
    alb_dif = 0.05 + 0.6 * torch.rand(ncol, ng, generator=gen)
    alb_dir = torch.clamp(alb_dif * (0.8 + 0.4 * torch.rand(ncol, ng, generator=gen)), max=0.95)
    return tuple(x.to(dt).contiguous().to(device)
                 for x in (toa, alb_dif, alb_dir, refl, trans, ref_dir, trans_dir_diff, tdir))


def reference(toa, alb_dif, alb_dir, refl, trans, ref_dir, trans_dir_diff, trans_dir_dir) -> tuple:
    R, T, Rd, Tdd, Td = (x.double() for x in (refl, trans, ref_dir, trans_dir_diff, trans_dir_dir))
    ncol, nlay, ng = R.shape
    fdir = torch.empty(ncol, nlay + 1, ng, dtype=torch.float64, device=R.device)
    fdir[:, 0] = toa.double()
    for l in range(nlay):
        fdir[:, l + 1] = fdir[:, l] * Td[:, l]
    A = torch.empty_like(fdir)
    Q = torch.empty_like(fdir)
    D = torch.empty_like(R)
    A[:, nlay] = alb_dif.double()
    Q[:, nlay] = alb_dir.double() * fdir[:, nlay]
    for l in range(nlay - 1, -1, -1):
        D[:, l] = 1.0 / (1.0 - A[:, l + 1] * R[:, l])
        A[:, l] = R[:, l] + T[:, l] * T[:, l] * A[:, l + 1] * D[:, l]
        Q[:, l] = Rd[:, l] * fdir[:, l] + T[:, l] * (Q[:, l + 1] + A[:, l + 1] * Tdd[:, l] * fdir[:, l]) * D[:, l]
    fdn = torch.zeros_like(fdir)
    fup = torch.empty_like(fdir)
    fup[:, 0] = Q[:, 0]
    for l in range(nlay):
        fdn[:, l + 1] = (T[:, l] * fdn[:, l] + R[:, l] * Q[:, l + 1] + Tdd[:, l] * fdir[:, l]) * D[:, l]
        fup[:, l + 1] = A[:, l + 1] * fdn[:, l + 1] + Q[:, l + 1]
    return tuple(x.to(refl.dtype) for x in (fup, fdn, fdir))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    slab = s["ncol"] * s["ng"]
    return {"bytes": 4 * slab * (19 * s["nlay"] + 6), "flops": 30 * slab * s["nlay"]}
