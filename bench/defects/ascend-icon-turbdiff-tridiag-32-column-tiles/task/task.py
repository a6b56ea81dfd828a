"""Implicit vertical diffusion of a tracer, one tridiagonal solve per column (ICON-NWP turbdiff style).

ICON keeps its fields as (nproma, nlev[, nblks]) with the cell index fastest; with one block of
nproma = all cells (the GPU setting) that is C-order [nlev, ncells], level 0 at the model top. With the
eddy diffusivity kh at the half levels (nlev + 1, half level k above full level k), the inverse distance
between full levels rdzh at the half levels (0 at the model top and at the surface: no flux there) and the
inverse layer depth rdzf, the backward-Euler step of d(phi)/dt = d/dz (kh d(phi)/dz) plus a surface flux
sflux into the lowest layer is, for every column,
    -lo_k phi'_{k-1} + (1 + lo_k + up_k) phi'_k - up_k phi'_{k+1} = phi_k + [k = nlev-1] dt sflux rdzf_k
    lo_k = dt kh_k rdzh_k rdzf_k,   up_k = dt kh_{k+1} rdzh_{k+1} rdzf_k,
solved with the Thomas algorithm (forward elimination from the top, back substitution from the surface).
Returns phi' [nlev, ncells].
"""
import torch

META = {
    "name": "vertical_implicit_diffusion",
    "level": 2,
    "category": "weather-physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"ncells": 100, "nlev": 7},
        "ragged": {"ncells": 333, "nlev": 11},
        "large": {"ncells": 542040, "nlev": 65},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 1024 cells; per block a forward "
                      "sweep over the levels carries the previous level's c' and d' in registers and writes c' to "
                      "a scratch array and d' to the output, then the back substitution walks up from the surface "
                      "rewriting the output in place; [1024] fp32 tiles, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """phi [nlev, ncells], kh [nlev+1, ncells], rdzh [nlev+1, ncells], rdzf [nlev, ncells], sflux [ncells], dt."""
    s = META["sizes"][size]
    n, L = s["ncells"], s["nlev"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f64 = torch.float64
    eta = torch.linspace(1.0, 0.0, L + 1, dtype=f64)                         # half levels, top first
    zh = 22000.0 * (0.15 * eta + 0.85 * eta ** 2.2)                          # ~20 m lowest layer
    zh = zh[:, None] * (1.0 + 0.03 * torch.rand(1, n, generator=g, dtype=f64))
    zf = 0.5 * (zh[:-1] + zh[1:])
    rdzf = 1.0 / (zh[:-1] - zh[1:])
    rdzh = torch.zeros(L + 1, n, dtype=f64)
    rdzh[1:-1] = 1.0 / (zf[:-1] - zf[1:])
    pbl = 1500.0 * (0.5 + torch.rand(1, n, generator=g, dtype=f64))
    kh = 1.0 + 60.0 * torch.rand(L + 1, n, generator=g, dtype=f64) * (zh < pbl)  # m^2/s, strong in the PBL
    phi = 0.012 * torch.exp(-zf / 2500.0) * (1.0 + 0.1 * torch.randn(L, n, generator=g, dtype=f64))
    sflux = 5.0e-5 * torch.rand(n, generator=g, dtype=f64)                   # kg/kg m/s (evaporation)
    fields = [phi, kh, rdzh, rdzf, sflux]
    return (*(f.to(dt).to(device).contiguous() for f in fields), 60.0)


def reference(phi, kh, rdzh, rdzf, sflux, dt):
    L = phi.shape[0]
    p, k, rh, rf, sf = (t.double() for t in (phi, kh, rdzh, rdzf, sflux))
    lo = dt * k[:-1] * rh[:-1] * rf
    up = dt * k[1:] * rh[1:] * rf
    rhs = p.clone()
    rhs[-1] += dt * sf * rf[-1]
    diag = 1.0 + lo + up
    cp = torch.empty_like(p)
    dp = torch.empty_like(p)
    cp[0] = -up[0] / diag[0]
    dp[0] = rhs[0] / diag[0]
    for j in range(1, L):
        den = diag[j] + lo[j] * cp[j - 1]
        cp[j] = -up[j] / den
        dp[j] = (rhs[j] + lo[j] * dp[j - 1]) / den
    x = torch.empty_like(p)
    x[-1] = dp[-1]
    for j in range(L - 2, -1, -1):
        x[j] = dp[j] - cp[j] * x[j + 1]
    return x.to(phi.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pts = s["ncells"] * s["nlev"]
    return {"bytes": 4 * 9 * pts + 4 * s["ncells"], "flops": 14 * pts}
