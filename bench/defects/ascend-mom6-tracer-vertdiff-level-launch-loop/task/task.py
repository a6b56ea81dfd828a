"""MOM6 tracer_vertdiff (MOM_tracer_diabatic.F90, no-sinking branch): implicit vertical mixing of a tracer.

For every water column (i, j) the dual entrainments of the diabatic step define a tridiagonal system over
the nz layers, which MOM6 solves with its b1/d1/c1 form of the Thomas algorithm:
    top:      h_tr = h(1) + h_neglect;  b1 = 1 / (h_tr + ea(1) + eb(1));  d1 = h_tr * b1
              tr(1) = b1 * (h_tr * tr(1) + sfc_src)
    k=2..nz:  c1(k) = eb(k-1) * b1;  h_tr = h(k) + h_neglect;  b_denom_1 = h_tr + d1 * ea(k)
              b1 = 1 / (b_denom_1 + eb(k));  d1 = b_denom_1 * b1
              tr(k) = b1 * (h_tr * tr(k) + ea(k) * tr(k-1))        (+ btm_src inside the bracket at k = nz)
    k=nz-1..1: tr(k) = tr(k) + c1(k+1) * tr(k+1)
Arrays are the C-order view of MOM6's Fortran (i, j, k) arrays: [nz, ny, nx], the column index fastest.
Returns the updated tracer (the input is left unchanged).
"""
import torch

META = {
    "name": "mom6_tracer_vertdiff",
    "level": 2,
    "category": "tridiagonal",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"nx": 12, "ny": 5, "nz": 6},
        "ragged": {"nx": 17, "ny": 11, "nz": 9},
        "large": {"nx": 720, "ny": 576, "nz": 75},
    },
    "baseline_notes": "One launch of 40 programs (the A2's vector cores); each loops over blocks of 1024 "
                      "columns and runs the whole MOM6 b1/d1/c1 Thomas sweep for them: b1, d1 and the "
                      "previous level's tracer carried in registers down the forward loop, c1 written to a "
                      "[nz, ncol] scratch, then the back substitution up the column carrying tr(k+1); no autotune.",
    "deterministic": True,
}
H_NEGLECT = 1e-30   # GV%H_subroundoff of a Boussinesq model in m


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """h_old, ea, eb, tr [nz, ny, nx]; sfc_src, btm_src [ny, nx]; h_neglect (float)."""
    s = META["sizes"][size]
    nx, ny, nz = s["nx"], s["ny"], s["nz"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # layer thicknesses (m): ~2 m at the top growing to ~250 m, some vanished layers, land columns ~ 1e-10 m
    base = torch.logspace(0.3, 2.4, nz, dtype=torch.float64)
    h = base[:, None, None] * (0.5 + torch.rand(nz, ny, nx, generator=g, dtype=torch.float64))
    h[torch.rand(nz, ny, nx, generator=g) < 0.05] = 1e-3
    land = torch.rand(ny, nx, generator=g) < 0.3
    h[:, land] = 1e-10
    # interface diffusivity (m2/s) times dt over the interface thickness: ea(k) = eb(k-1)
    kd = 10.0 ** (-5.0 + 3.0 * torch.rand(nz + 1, ny, nx, generator=g, dtype=torch.float64))
    kd[:3] *= 50.0                                                # surface boundary layer
    h_int = 0.5 * (torch.cat([h[:1], h]) + torch.cat([h, h[-1:]]))  # [nz+1]
    ent = kd * 3600.0 / h_int.clamp(min=1e-3)
    ent[0] = 0.0
    ent[nz] = 0.0
    ent[:, land] = 0.0
    ea, eb = ent[:-1].clone(), ent[1:].clone()
    temp = 2.0 + 22.0 * torch.exp(-torch.cumsum(h, 0) / 800.0) + 0.3 * torch.randn(nz, ny, nx, generator=g, dtype=torch.float64)
    sfc_src = 0.5 * torch.randn(ny, nx, generator=g, dtype=torch.float64)   # time-integrated, m degC
    btm_src = 0.01 * torch.randn(ny, nx, generator=g, dtype=torch.float64)
    sfc_src[land] = 0.0
    btm_src[land] = 0.0
    cast = lambda t: t.to(dt).to(device)
    return cast(h), cast(ea), cast(eb), cast(temp), cast(sfc_src), cast(btm_src), H_NEGLECT


def reference(h_old, ea, eb, tr, sfc_src, btm_src, h_neglect):
    h, a, b, t = h_old.double(), ea.double(), eb.double(), tr.double().clone()
    nz = h.shape[0]
    c1 = torch.zeros_like(h)
    h_tr = h[0] + h_neglect
    b1 = 1.0 / (h_tr + a[0] + b[0])
    d1 = h_tr * b1
    t[0] = b1 * (h_tr * t[0] + sfc_src.double())
    for k in range(1, nz):
        c1[k] = b[k - 1] * b1
        h_tr = h[k] + h_neglect
        b_denom_1 = h_tr + d1 * a[k]
        b1 = 1.0 / (b_denom_1 + b[k])
        d1 = b_denom_1 * b1
        src = h_tr * t[k] + (btm_src.double() if k == nz - 1 else 0.0)
        t[k] = b1 * (src + a[k] * t[k - 1])
    for k in range(nz - 2, -1, -1):
        t[k] = t[k] + c1[k + 1] * t[k + 1]
    return t.to(tr.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["nx"] * s["ny"] * s["nz"]
    return {"bytes": 4 * 9 * n + 8 * s["nx"] * s["ny"], "flops": 14 * n}
