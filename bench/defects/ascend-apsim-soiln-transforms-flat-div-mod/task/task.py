"""Daily soil mineral-N transformations per soil layer of a gridded crop model (APSIM SoilNitrogen / DSSAT SOILNI).

For every grid cell c and soil layer l (state in kg N/ha, soil water in mm/mm, soil temperature st in deg C,
organic carbon oc in %, bulk density bd in g/cm3; layer thickness dlayer[l] in mm is the grid's fixed
discretisation, soil pH[c] the cell's topsoil value), with conv = bd * dlayer / 100 (kg/ha per ppm):
  urea hydrolysis (DSSAT):  ak  = max(0.25, -1.12 + 1.31 oc + 0.203 pH - 0.155 oc pH)
                            hyd = min(urea, ak * min(swf_h, tf_h) * urea)
                            swf_h = clamp((sw - ll15)/(dul - ll15) + 0.2, 0, 1), tf_h = clamp(st/40 + 0.2, 0, 1)
  nitrification (APSIM):    water index wfi = (sw - ll15)/(dul - ll15) below dul, 1 + (sw - dul)/(sat - dul) above,
                            wf = piecewise-linear wfi -> [0, .25, 1, 2] : [0, 1, 1, 0]
                            phf = piecewise-linear pH -> [4.5, 6, 8, 9] : [0, 1, 1, 0]
                            tf = clamp((st - 5)/25, 0, 1)
                            nit = min(nh4 + hyd, 40 * nh4ppm/(nh4ppm + 90) * min(wf, tf) * phf * conv)
  denitrification (APSIM):  active_c = 0.0031 * oc * 1e4 + 24.5 (ppm)
                            wfd = clamp((sw - dul)/(sat - dul), 0, 1), tfd = min(1, 0.1 exp(0.046 st))
                            den = min(no3, 0.0006 * active_c * wfd * tfd * no3)
Returns (urea - hyd, nh4 + hyd - nit, no3 + nit - den), each [N, L] fp32.
"""
import torch

META = {
    "name": "soil_n_transformations",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 50, "L": 8},
        "ragged": {"N": 77, "L": 6},
        "large": {"N": 262144, "L": 8},
    },
    "baseline_notes": "min(40, blocks) programs (the A2's vector cores) loop over [128 cells x 8 layers] tiles of the "
                      "cell-major [N, L] state; pH loaded as a 128-vector and broadcast along the layers, the layer "
                      "thicknesses as one 8-vector outside the loop; all three processes fused, three stores; "
                      "no autotune.",
    "deterministic": True,
}

# soil profile of the grid, 8 layers (mm): 0-5, 5-15, 15-30, 30-45, 45-60, 60-90, 90-120, 120-200 cm
DLAYER_MM = [50.0, 100.0, 150.0, 150.0, 150.0, 300.0, 300.0, 800.0]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """urea, nh4, no3 [N, L] kg/ha; sw, ll15, dul, sat [N, L] mm/mm; st [N, L] deg C; oc [N, L] %;
    bd [N, L] g/cm3; ph [N]; dlayer [L] mm."""
    s = META["sizes"][size]
    N, L = s["N"], s["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    r = lambda *shape: torch.rand(*shape, generator=g)
    depth = torch.linspace(0.0, 1.0, L)[None, :]
    ll15 = 0.08 + 0.12 * r(N, L)
    dul = ll15 + 0.10 + 0.10 * r(N, L)
    sat = dul + 0.05 + 0.10 * r(N, L)
    sw = ll15 * 0.7 + (sat - ll15 * 0.7) * r(N, L)
    st = 4.0 + 26.0 * r(N, 1) - 6.0 * depth + 2.0 * r(N, L)
    oc = (2.5 * r(N, 1) + 0.2) * torch.exp(-2.5 * depth) + 0.05
    bd = 1.1 + 0.5 * r(N, L)
    urea = 30.0 * r(N, L) * (depth < 0.3)
    nh4 = 2.0 + 25.0 * r(N, L) * torch.exp(-2.0 * depth)
    no3 = 5.0 + 60.0 * r(N, L) * torch.exp(-1.5 * depth)
    ph = 4.0 + 5.5 * r(N)
    dlayer = torch.tensor(DLAYER_MM[:L])
    out = (urea, nh4, no3, sw, ll15, dul, sat, st, oc, bd, ph, dlayer)
    return tuple(t.to(dt).contiguous().to(device) for t in out)


def _interp(x, xs, ys):
    """Piecewise-linear interpolation with flat extrapolation (APSIM linear_interp_real)."""
    out = torch.full_like(x, ys[0])
    for i in range(1, len(xs)):
        seg = ys[i - 1] + (ys[i] - ys[i - 1]) * (x - xs[i - 1]) / (xs[i] - xs[i - 1])
        out = torch.where(x > xs[i - 1], seg, out)
    return torch.where(x >= xs[-1], torch.full_like(x, ys[-1]), out)


def reference(urea, nh4, no3, sw, ll15, dul, sat, st, oc, bd, ph, dlayer):
    urea, nh4, no3, sw, ll15, dul, sat, st, oc, bd = (t.double() for t in
                                                     (urea, nh4, no3, sw, ll15, dul, sat, st, oc, bd))
    ph = ph.double()[:, None]
    conv = bd * dlayer.double()[None, :] / 100.0
    # urea hydrolysis
    ak = torch.clamp(-1.12 + 1.31 * oc + 0.203 * ph - 0.155 * oc * ph, min=0.25)
    swf_h = torch.clamp((sw - ll15) / (dul - ll15) + 0.2, 0.0, 1.0)
    tf_h = torch.clamp(st / 40.0 + 0.2, 0.0, 1.0)
    hyd = torch.minimum(urea, ak * torch.minimum(swf_h, tf_h) * urea)
    # nitrification
    wfi = torch.where(sw < dul, torch.clamp((sw - ll15) / (dul - ll15), min=0.0),
                      1.0 + (sw - dul) / (sat - dul))
    wf = _interp(wfi, [0.0, 0.25, 1.0, 2.0], [0.0, 1.0, 1.0, 0.0])
    phf = _interp(ph, [4.5, 6.0, 8.0, 9.0], [0.0, 1.0, 1.0, 0.0])
    tf = torch.clamp((st - 5.0) / 25.0, 0.0, 1.0)
    nh4_ppm = nh4 / conv
    nit = 40.0 * nh4_ppm / (nh4_ppm + 90.0) * torch.minimum(wf, tf) * phf * conv
    nit = torch.minimum(nh4 + hyd, nit)
    # denitrification
    active_c = 0.0031 * oc * 1.0e4 + 24.5
    wfd = torch.clamp((sw - dul) / (sat - dul), 0.0, 1.0)
    tfd = torch.clamp(0.1 * torch.exp(0.046 * st), max=1.0)
    den = torch.minimum(no3, 0.0006 * active_c * wfd * tfd * no3)
    f = torch.float32
    return (urea - hyd).to(f), (nh4 + hyd - nit).to(f), (no3 + nit - den).to(f)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["L"]
    return {"bytes": 52 * n + 4 * s["N"] + 4 * s["L"], "flops": 90 * n}
