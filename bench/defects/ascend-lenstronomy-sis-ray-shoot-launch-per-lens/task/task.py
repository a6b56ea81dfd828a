"""Single-plane ray shooting through many SIS deflectors (lenstronomy SinglePlane.ray_shooting).

A cluster-scale lens is modelled as K singular isothermal spheres (lens_model_list = ['SIS'] * K,
one per cluster member galaxy, each with its own Einstein radius theta_E and centre). Every ray of
the image-plane grid (x, y) (flattened, as lenstronomy.Util.util.make_grid returns it) is mapped to
the source plane:
    beta_x = x - sum_k alpha_x,k(x, y),   beta_y = y - sum_k alpha_y,k(x, y)
with the SIS deflection of lenstronomy's SIS.derivatives:
    dx = x - cx_k, dy = y - cy_k, R = sqrt(dx^2 + dy^2),
    alpha_x = theta_E,k * dx / R, alpha_y = theta_E,k * dy / R  (0 at R = 0; R is floored at 1e-6).
Coordinates in arcsec. Returns (beta_x [R], beta_y [R]).
"""
import torch

META = {
    "name": "sis_population_ray_shooting",
    "level": 2,
    "category": "lensing",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"NY": 16, "NX": 24, "K": 5},
        "ragged": {"NY": 19, "NX": 37, "K": 7},
        "large": {"NY": 1024, "NX": 1024, "K": 256},
    },
    "baseline_notes": "One launch: 40 programs (the 910B4's vector cores) loop over blocks of 2048 rays, "
                      "load x and y once, loop over all K deflectors inside the kernel (three scalar "
                      "parameter loads per deflector) keeping alpha_x / alpha_y in registers, and store "
                      "beta once; no autotune.",
    "deterministic": True,
}
PIXEL_SCALE = 0.05   # arcsec per ray (HST-like 0.1" pixels, supersampling 2)
R_MIN = 1e-6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [R], y [R] image-plane ray grid; theta_E [K], center_x [K], center_y [K] of the SIS members."""
    s = META["sizes"][size]
    ny, nx, k = s["NY"], s["NX"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    xs = (torch.arange(nx, dtype=torch.float64) - (nx - 1) / 2) * PIXEL_SCALE
    ys = (torch.arange(ny, dtype=torch.float64) - (ny - 1) / 2) * PIXEL_SCALE
    yy, xx = torch.meshgrid(ys, xs, indexing="ij")
    half_x, half_y = nx * PIXEL_SCALE / 2, ny * PIXEL_SCALE / 2
    # one dominant BCG near the centre, the members scattered over (and a bit beyond) the field
    theta_e = 0.05 + 0.6 * torch.rand(k, generator=g, dtype=torch.float64) ** 3
    theta_e[0] = 1.5 + torch.rand(1, generator=g, dtype=torch.float64)
    cx = (torch.rand(k, generator=g, dtype=torch.float64) * 2.4 - 1.2) * half_x
    cy = (torch.rand(k, generator=g, dtype=torch.float64) * 2.4 - 1.2) * half_y
    cx[0], cy[0] = 0.013, -0.021
    out = (xx.reshape(-1), yy.reshape(-1), theta_e, cx, cy)
    return tuple(t.to(dt).to(device) for t in out)


def reference(x: torch.Tensor, y: torch.Tensor, theta_e: torch.Tensor, center_x: torch.Tensor,
              center_y: torch.Tensor) -> tuple:
    xd, yd = x.double(), y.double()
    ax = torch.zeros_like(xd)
    ay = torch.zeros_like(yd)
    for te, cx, cy in zip(theta_e.double().tolist(), center_x.double().tolist(), center_y.double().tolist()):
        dx, dy = xd - cx, yd - cy
        a = te / torch.sqrt(dx * dx + dy * dy).clamp(min=R_MIN)
        ax += a * dx
        ay += a * dy
    return (xd - ax).to(x.dtype), (yd - ay).to(y.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    r = s["NY"] * s["NX"]
    return {"bytes": 16 * r + 12 * s["K"], "flops": 12 * r * s["K"]}
