"""x-direction finite-volume update of the Saint-Venant equations (Basilisk saint-venant.h, first order).

Basilisk's Saint-Venant solver (used for its Tohoku tsunami inundation runs) computes, on every x-face
between a left cell L and a right cell R, Audusse's hydrostatic reconstruction
    zf = max(zb_L, zb_R),  hm = max(0, h_L + zb_L - zf),  hp = max(0, h_R + zb_R - zf)
and the Kurganov-Noelle-Petrova central-upwind flux (Basilisk's kurganov()) of the reconstructed states
with the cell velocities u = hu / h (0 on dry cells, h <= dry):
    cm = sqrt(g hm), cp = sqrt(g hp), ap = max(u_R + cp, u_L + cm, 0), am = min(u_R - cp, u_L - cm, 0)
    fh = (ap hm u_L - am hp u_R + ap am (hp - hm)) / (ap - am)
    fu = (ap (hm u_L^2 + g hm^2 / 2) - am (hp u_R^2 + g hp^2 / 2) + ap am (hp u_R - hm u_L)) / (ap - am)
    (fh = fu = 0 when max(ap, -am) <= eps), and the upwinded tangential flux fv = fh * (v_L if fh > 0 else v_R).
The x-sweep updates every cell i from its west face w = (i-1, i) and east face e = (i, i+1), with the
well-balanced source of the reconstruction:
    h'  = h  - dt/dx (fh_e - fh_w)
    hu' = hu - dt/dx (fu_e - fu_w + g/2 (hp_w^2 - hm_e^2))
    hv' = hv - dt/dx (fv_e - fv_w)
The west and east domain edges are open (zero-gradient ghost cells: the ghost copies the edge cell).
Inputs: h, hu, hv, zb [ny, nx] fp32 and dt/dx (s/m). Returns (h', hu', hv'), each fp32 [ny, nx].
"""
import torch

G = 9.81
DRY = 1e-6
EPS = 1e-10

META = {
    "name": "saint_venant_x_sweep",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"ny": 12, "nx": 300},
        "ragged": {"ny": 9, "nx": 517},
        "large": {"ny": 4096, "nx": 4096},
    },
    "baseline_notes": "40 programs (the A2's vector cores) stride over [2, 256] tiles; the west and east "
                      "neighbours are contiguous loads at offsets -1 / +1 masked at the domain edges and "
                      "replaced by the edge cell there with tl.where; both faces' reconstruction and Kurganov "
                      "flux are computed in the tile (each face twice, by its two cells). No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A 40 km coastal strip: shelf rising from -200 m to a +30 m coast, an incoming tsunami crest."""
    s = META["sizes"][size]
    ny, nx = s["ny"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    y = torch.linspace(0.0, 1.0, ny)[:, None]
    x = torch.linspace(0.0, 1.0, nx)[None, :]
    zb = -200.0 + 230.0 * x ** 1.5 + 6.0 * torch.sin(11.0 * y + 3.0 * x)
    zb = zb + 0.8 * torch.randn(ny, nx, generator=g)
    eta = 5.0 * torch.exp(-((x - 0.55) / 0.08) ** 2) + 0.02 * torch.randn(ny, nx, generator=g)
    h = (eta - zb).clamp(min=0.0)
    h = torch.where(h < 0.05, torch.zeros_like(h), h)
    wet = h > 0
    hs = h.clamp(min=0.05)
    u = eta * torch.sqrt(G / hs) + 0.05 * torch.randn(ny, nx, generator=g)
    v = 0.1 * torch.randn(ny, nx, generator=g)
    hu = torch.where(wet, h * u, torch.zeros_like(h))
    hv = torch.where(wet, h * v, torch.zeros_like(h))
    speed = torch.where(wet, u.abs() + torch.sqrt(G * h), torch.zeros_like(h)).max().item()
    dt_dx = 0.45 / speed
    return (h.to(dt).to(device), hu.to(dt).to(device), hv.to(dt).to(device), zb.to(dt).to(device),
            dt_dx)


def _kurganov(hm, hp, um, up):
    cm, cp = torch.sqrt(G * hm), torch.sqrt(G * hp)
    ap = torch.maximum(torch.maximum(up + cp, um + cm), torch.zeros_like(hm))
    am = torch.minimum(torch.minimum(up - cp, um - cm), torch.zeros_like(hm))
    qm, qp = hm * um, hp * up
    a = torch.maximum(ap, -am)
    ok = a > EPS
    den = torch.where(ok, ap - am, torch.ones_like(a))
    fh = (ap * qm - am * qp + ap * am * (hp - hm)) / den
    fu = (ap * (qm * um + G * hm * hm / 2) - am * (qp * up + G * hp * hp / 2) + ap * am * (qp - qm)) / den
    zero = torch.zeros_like(a)
    return torch.where(ok, fh, zero), torch.where(ok, fu, zero)


def reference(h: torch.Tensor, hu: torch.Tensor, hv: torch.Tensor, zb: torch.Tensor, dt_dx: float) -> tuple:
    hd, hud, hvd, z = h.double(), hu.double(), hv.double(), zb.double()
    wet = hd > DRY
    hs = torch.where(wet, hd, torch.ones_like(hd))
    u = torch.where(wet, hud / hs, torch.zeros_like(hd))
    v = torch.where(wet, hvd / hs, torch.zeros_like(hd))

    def pad(a):  # zero-gradient ghost cells at the west and east edges
        return torch.cat([a[:, :1], a, a[:, -1:]], dim=1)

    H, U, V, Z = pad(hd), pad(u), pad(v), pad(z)
    zf = torch.maximum(Z[:, :-1], Z[:, 1:])                   # face f sits between padded cells f, f+1
    hm = (H[:, :-1] + Z[:, :-1] - zf).clamp(min=0.0)
    hp = (H[:, 1:] + Z[:, 1:] - zf).clamp(min=0.0)
    fh, fu = _kurganov(hm, hp, U[:, :-1], U[:, 1:])
    fv = fh * torch.where(fh > 0, V[:, :-1], V[:, 1:])
    w, e = slice(0, -1), slice(1, None)                         # cell i: west face i, east face i+1
    h_new = hd - dt_dx * (fh[:, e] - fh[:, w])
    hu_new = hud - dt_dx * (fu[:, e] - fu[:, w] + G / 2 * (hp[:, w] ** 2 - hm[:, e] ** 2))
    hv_new = hvd - dt_dx * (fv[:, e] - fv[:, w])
    return h_new.to(h.dtype), hu_new.to(h.dtype), hv_new.to(h.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["ny"] * s["nx"]
    return {"bytes": 28 * n, "flops": 120 * n}
