"""Kalman-filter track fit through a telescope of tracking planes (ACTS KalmanFitter, straight-line stepper, no field).

Each track starts from a seed (x, y, tx, ty) at the reference plane z = 0 with a diagonal seed covariance
(var_pos0 for x and y, var_slope0 for the slopes) and is filtered through the L measurement planes at z[l]:
  predict   x += tx * dz,  C <- F C F^T + Q       (F = [[1, dz], [0, 1]] per projection)
            Q: multiple scattering in the material crossed before the plane, Highland formula
            theta0 = 0.0136 / p * sqrt(X) * (1 + 0.038 ln X), X = xx0 * sqrt(1 + tx^2 + ty^2), added to the
            slope variances as theta0^2 (1 + t^2)(1 + tx^2 + ty^2); the tx-ty correlation is neglected, so the
            x and y projections are two independent 2x2 filters
  update    1-D measurement of x (and y) with variance var_hit: r = m - x, S = Cxx + V, K = C[:, 0] / S,
            state += K r, C <- (I - K H) C, chi2 += r^2 / S
Returns (params [4, N] = x, y, tx, ty at the last plane, cov [6, N] = Cxx, Cxtx, Ctxtx, Cyy, Cyty, Ctyty, chi2 [N]).
"""
import torch

META = {
    "name": "telescope_kalman_fit",
    "level": 2,
    "category": "tracking",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-6, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 700, "L": 6},
        "ragged": {"N": 1001, "L": 5},
        "large": {"N": 1048576, "L": 10},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 512 tracks; each block loads its "
                      "seeds and momenta once, runs the predict/update of every plane with the state and covariance "
                      "held on chip, reading only that plane's two hit coordinates, and stores params, cov and chi2 "
                      "once; one launch, no autotune.",
    "deterministic": True,
}
HIT_SIGMA = 0.005      # mm, pixel plane resolution
XX0 = 0.003            # x/X0 of one sensor plane + air gap
PLANE_GAP = 30.0       # mm


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """seeds [4, N] (x, y, tx, ty at z=0), mom [N] (GeV), hits [L, 2, N] (x, y measured), z [L] (mm),
    then var_hit, var_pos0, var_slope0 and xx0 as floats."""
    s = META["sizes"][size]
    n, n_planes = s["N"], s["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f64 = torch.float64
    z = PLANE_GAP * torch.arange(1, n_planes + 1, dtype=f64)
    mom = 1.0 + torch.rand(n, generator=g, dtype=f64) * 9.0
    x = torch.randn(n, generator=g, dtype=f64) * 2.0
    y = torch.randn(n, generator=g, dtype=f64) * 2.0
    tx = torch.randn(n, generator=g, dtype=f64) * 0.02
    ty = torch.randn(n, generator=g, dtype=f64) * 0.02
    hits = torch.empty(n_planes, 2, n, dtype=f64)
    zp = 0.0
    for layer in range(n_planes):
        dz = float(z[layer]) - zp
        x, y = x + tx * dz, y + ty * dz
        hits[layer, 0] = x + torch.randn(n, generator=g, dtype=f64) * HIT_SIGMA
        hits[layer, 1] = y + torch.randn(n, generator=g, dtype=f64) * HIT_SIGMA
        theta0 = 0.0136 / mom * (XX0 ** 0.5) * (1 + 0.038 * torch.log(torch.tensor(XX0, dtype=f64)))
        tx = tx + torch.randn(n, generator=g, dtype=f64) * theta0
        ty = ty + torch.randn(n, generator=g, dtype=f64) * theta0
        zp = float(z[layer])
    seeds = torch.stack([hits[0, 0] + torch.randn(n, generator=g, dtype=f64) * 0.05,
                         hits[0, 1] + torch.randn(n, generator=g, dtype=f64) * 0.05,
                         (hits[1, 0] - hits[0, 0]) / PLANE_GAP, (hits[1, 1] - hits[0, 1]) / PLANE_GAP])
    # seed at z = 0: step the first-plane estimate back by one gap
    seeds[0] -= seeds[2] * float(z[0])
    seeds[1] -= seeds[3] * float(z[0])
    to = lambda t: t.to(dt).contiguous().to(device)  # noqa: E731
    return (to(seeds), to(mom), to(hits), to(z), HIT_SIGMA ** 2, 0.25, 1e-4, XX0)


def reference(seeds, mom, hits, z, var_hit, var_pos0, var_slope0, xx0):
    d = torch.float64
    x, y, tx, ty = (seeds[k].to(d) for k in range(4))
    p = mom.to(d)
    cxx = torch.full_like(x, var_pos0)
    cyy = torch.full_like(x, var_pos0)
    cxt = torch.zeros_like(x)
    cyt = torch.zeros_like(x)
    ctt = torch.full_like(x, var_slope0)
    cuu = torch.full_like(x, var_slope0)
    chi2 = torch.zeros_like(x)
    zp = 0.0
    for layer in range(hits.shape[0]):
        zl = float(z[layer].to(d))
        dz = zl - zp
        t2 = 1.0 + tx * tx + ty * ty
        big_x = xx0 * torch.sqrt(t2)
        theta0 = 0.0136 / p * torch.sqrt(big_x) * (1.0 + 0.038 * torch.log(big_x))
        th2 = theta0 * theta0 * t2
        qx, qy = th2 * (1.0 + tx * tx), th2 * (1.0 + ty * ty)
        x, y = x + tx * dz, y + ty * dz
        cxx, cxt, ctt = cxx + 2.0 * dz * cxt + dz * dz * ctt, cxt + dz * ctt, ctt + qx
        cyy, cyt, cuu = cyy + 2.0 * dz * cyt + dz * dz * cuu, cyt + dz * cuu, cuu + qy
        rx, ry = hits[layer, 0].to(d) - x, hits[layer, 1].to(d) - y
        sx, sy = cxx + var_hit, cyy + var_hit
        kx0, kx1, ky0, ky1 = cxx / sx, cxt / sx, cyy / sy, cyt / sy
        x, tx, y, ty = x + kx0 * rx, tx + kx1 * rx, y + ky0 * ry, ty + ky1 * ry
        chi2 = chi2 + rx * rx / sx + ry * ry / sy
        cxx, cxt, ctt = cxx - kx0 * cxx, cxt - kx0 * cxt, ctt - kx1 * cxt
        cyy, cyt, cuu = cyy - ky0 * cyy, cyt - ky0 * cyt, cuu - ky1 * cyt
        zp = zl
    dt = seeds.dtype
    return (torch.stack([x, y, tx, ty]).to(dt), torch.stack([cxx, cxt, ctt, cyy, cyt, cuu]).to(dt), chi2.to(dt))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, n_planes = s["N"], s["L"]
    return {"bytes": n * (20 + 8 * n_planes + 44), "flops": 80 * n * n_planes}
