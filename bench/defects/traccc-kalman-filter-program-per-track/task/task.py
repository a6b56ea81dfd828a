"""Forward Kalman filter of track candidates (traccc fitting: gain-matrix updater on the detray
telescope geometry, one track candidate = its measurements on every plane).

Planes are perpendicular to x at plane_x[s] (mm); B = 2 T along z bends tracks in x-y. The bound
state is (y, z, ty = dy/dx, tz = dz/dx, qop = q/p [1/GeV]) with a symmetric 5x5 covariance. For each
plane in turn:
  transport over dx:  y += dx ty + dx^2/2 kappa qop,  z += dx tz,  ty += dx kappa qop
                      C = F C F^T,  then multiple scattering adds theta0^2 to var(ty) and var(tz)
  update with the 2-D measurement m (variance sigma^2 each):
                      S = H C H^T + V,  K = C H^T S^-1,  x += K r,  C -= K H C,  chi2 += r^T S^-1 r
Starts from the seed parameters at x = 0 with a diagonal covariance seed_var. Returns the filtered
parameters on the last plane ([T, 5] fp32) and the track chi2 ([T] fp32).
"""
import torch

META = {
    "name": "kalman_filter_forward",
    "level": 2,
    "category": "tracking",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"T": 20, "S": 12},
        "ragged": {"T": 37, "S": 9},
        "large": {"T": 45000, "S": 12},
    },
    "baseline_notes": "One program per 32 track candidates (one track per lane, 1 warp): the state and the "
                      "15 covariance entries live in registers as [32] vectors, the planes are a loop of "
                      "transport + gain-matrix update; parameters and chi2 stored once at the end.",
    "deterministic": True,
}

PITCH = 25.0          # plane spacing, mm
SIGMA = 0.05          # measurement resolution, mm
THETA0 = 1.0e-3       # multiple scattering per plane, rad
KAPPA = 0.3 * 2.0e-3  # 0.3 * B[T] per mm: curvature per unit q/p [1/GeV]
SEED_VAR = (1.0, 1.0, 1.0e-2, 1.0e-2, 1.0)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """meas [T, S, 2], plane_x [S], seed params [T, 5], seed_var [5], sigma^2, theta0^2, kappa."""
    s = META["sizes"][size]
    t, n = s["T"], s["S"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    xs = PITCH * torch.arange(1, n + 1, dtype=torch.float64)
    p = torch.empty(t, 5, dtype=torch.float64)
    p[:, 0:2] = torch.randn(t, 2, generator=g, dtype=torch.float64) * 0.5
    p[:, 2:4] = torch.randn(t, 2, generator=g, dtype=torch.float64) * 0.1
    mom = 1.0 + 9.0 * torch.rand(t, generator=g, dtype=torch.float64)
    p[:, 4] = torch.where(torch.rand(t, generator=g) < 0.5, -1.0, 1.0).double() / mom
    seed_p = p + torch.randn(t, 5, generator=g, dtype=torch.float64) * torch.tensor([0.3, 0.3, 0.01, 0.01, 0.3],
                                                                                    dtype=torch.float64)
    meas = torch.empty(t, n, 2, dtype=torch.float64)
    x_prev, y, z, ty, tz, qop = 0.0, p[:, 0].clone(), p[:, 1].clone(), p[:, 2].clone(), p[:, 3].clone(), p[:, 4]
    for k in range(n):
        dx = float(xs[k]) - x_prev
        y = y + dx * ty + 0.5 * dx * dx * KAPPA * qop
        z = z + dx * tz
        ty = ty + dx * KAPPA * qop + torch.randn(t, generator=g, dtype=torch.float64) * THETA0
        tz = tz + torch.randn(t, generator=g, dtype=torch.float64) * THETA0
        meas[:, k, 0] = y + torch.randn(t, generator=g, dtype=torch.float64) * SIGMA
        meas[:, k, 1] = z + torch.randn(t, generator=g, dtype=torch.float64) * SIGMA
        x_prev = float(xs[k])
    return (meas.to(device=device, dtype=dt), xs.to(device=device, dtype=dt), seed_p.to(device=device, dtype=dt),
            torch.tensor(SEED_VAR, dtype=dt, device=device), SIGMA * SIGMA, THETA0 * THETA0, KAPPA)


def reference(meas, plane_x, seed, seed_var, sigma2, theta0sq, kappa):
    f64 = torch.float64
    m, xs, x = meas.to(f64), plane_x.to(f64), seed.to(f64).clone()
    t = x.shape[0]
    cov = torch.diag_embed(seed_var.to(f64).expand(t, 5)).clone()
    chi2 = torch.zeros(t, dtype=f64, device=x.device)
    eye = torch.eye(5, dtype=f64, device=x.device)
    h = eye[:2]
    v = sigma2 * torch.eye(2, dtype=f64, device=x.device)
    x_prev = 0.0
    for k in range(xs.shape[0]):
        dx = float(xs[k]) - x_prev
        f = eye.clone()
        f[0, 2] = dx
        f[0, 4] = 0.5 * dx * dx * kappa
        f[1, 3] = dx
        f[2, 4] = dx * kappa
        x = x @ f.T
        cov = f @ cov @ f.T
        cov[:, 2, 2] += theta0sq
        cov[:, 3, 3] += theta0sq
        s = h @ cov @ h.T + v
        s_inv = torch.linalg.inv(s)
        gain = cov @ h.T @ s_inv
        r = m[:, k, :] - x[:, :2]
        x = x + (gain @ r[:, :, None])[:, :, 0]
        cov = cov - gain @ h @ cov
        chi2 = chi2 + (r[:, None, :] @ s_inv @ r[:, :, None])[:, 0, 0]
        x_prev = float(xs[k])
    return x.to(seed.dtype), chi2.to(seed.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["T"] * (8 * s["S"] + 44), "flops": s["T"] * s["S"] * 160}
