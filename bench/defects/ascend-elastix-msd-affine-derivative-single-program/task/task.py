"""Mean-squares metric value and its derivative w.r.t. the 12 parameters of a 3-D affine transform.

The form of elastix's AdvancedMeanSquaresMetric::GetValueAndDerivative (and ITK's
MeanSquaresImageToImageMetricv4) with an AdvancedAffineTransform, over every voxel of the fixed image
(the "Full" image sampler). The moving image and its gradient (torch.gradient of the moving volume,
stacked, resampled at the transformed points) are given on the fixed grid. With the physical point
x = origin + spacing * index (identity direction, x the fastest axis) and the centre of rotation c:
    e(x)    = M(T(x)) - F(x)
    value   = 1/N * sum_x e(x)^2
    dT_d/dA[d, j] = x_j - c_j  (matrix part, ITK order p = 3 d + j),  dT_d/dt_d = 1  (p = 9 + d)
    deriv_p = 2/N * sum_x e(x) * sum_d dM/dx_d(T(x)) * dT_d/dp(x)
Returns (value [1] fp32, derivative [12] fp32).
"""
import torch

META = {
    "name": "msd_affine_value_and_derivative",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"Z": 5, "Y": 6, "X": 20},
        "ragged": {"Z": 7, "Y": 9, "X": 37},
        "large": {"Z": 182, "Y": 218, "X": 182},
    },
    "baseline_notes": "40 programs (the 910B's vector cores) loop over tiles of 4 image rows x the padded row "
                      "(next_power_of_2(X)); per tile e = M - F and e * dM/dx_d are reduced along x (with the x "
                      "coordinate as a weight for the x-column of the matrix part), the row sums weighted by the "
                      "rows' y and z coordinates; 13 fp32 running sums per program are stored as a partial row, a "
                      "one-program kernel sums the partials and scales by 1/N and 2/N. No atomics, no autotune.",
    "deterministic": True,
}
SPACING = (1.0, 1.0, 1.0)          # mm, x y z


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Fixed F [Z, Y, X], resampled moving M [Z, Y, X], moving gradient [3, Z, Y, X] (d/dx, d/dy, d/dz, per
    mm), then spacing (sx, sy, sz), origin (ox, oy, oz) and centre (cx, cy, cz) as Python float tuples."""
    s = META["sizes"][size]
    Z, Y, X = s["Z"], s["Y"], s["X"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    zz, yy, xx = torch.meshgrid(torch.linspace(-1, 1, Z), torch.linspace(-1, 1, Y), torch.linspace(-1, 1, X),
                                indexing="ij")
    r2 = (xx / 0.8) ** 2 + (yy / 0.9) ** 2 + (zz / 0.75) ** 2
    fixed = 100.0 * torch.sigmoid(12.0 * (1.0 - r2)) + 20.0 * torch.sin(5.0 * xx) * torch.cos(4.0 * yy)
    fixed = fixed + 2.0 * torch.randn(Z, Y, X, generator=g)
    shifted = (((xx - 0.03) / 0.8) ** 2 + ((yy + 0.02) / 0.9) ** 2 + (zz / 0.75) ** 2)
    moving = 100.0 * torch.sigmoid(12.0 * (1.0 - shifted)) + 20.0 * torch.sin(5.0 * (xx - 0.03)) * torch.cos(
        4.0 * (yy + 0.02)) + 2.0 * torch.randn(Z, Y, X, generator=g)
    sx, sy, sz = SPACING
    gz, gy, gx = torch.gradient(moving, spacing=(sz, sy, sx))
    grad = torch.stack([gx, gy, gz], dim=0)
    origin = (-0.5 * sx * (X - 1) + 0.4, -0.5 * sy * (Y - 1) - 1.1, -0.5 * sz * (Z - 1) + 0.7)
    centre = (0.25, -0.6, 1.3)
    return (fixed.to(dt).contiguous().to(device), moving.to(dt).contiguous().to(device),
            grad.to(dt).contiguous().to(device), SPACING, origin, centre)


def reference(fixed, moving, grad, spacing, origin, centre):
    Z, Y, X = fixed.shape
    dev = fixed.device
    e = moving.double() - fixed.double()
    g = grad.double()
    q = [origin[j] - centre[j] + spacing[j] * torch.arange(n, dtype=torch.float64, device=dev)
         for j, n in enumerate((X, Y, Z))]
    coords = (q[0][None, None, :].expand(Z, Y, X), q[1][None, :, None].expand(Z, Y, X),
              q[2][:, None, None].expand(Z, Y, X))
    n = e.numel()
    deriv = torch.zeros(12, dtype=torch.float64, device=dev)
    for d in range(3):
        h = e * g[d]
        for j in range(3):
            deriv[3 * d + j] = (h * coords[j]).sum()
        deriv[9 + d] = h.sum()
    value = (e * e).sum() / n
    return value.reshape(1).to(fixed.dtype), (2.0 / n * deriv).to(fixed.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["Z"] * s["Y"] * s["X"]
    return {"bytes": 20 * n, "flops": 30 * n}
