"""WarpX bilinear (binomial) current filter on a 2-D Cartesian (x, z) grid, one pass in each direction.

WarpX smooths the deposited current before the field push (warpx.use_filter = 1,
warpx.filter_npass_each_dir = 1 1): BilinearFilter::ApplyStencil convolves every component of J
with the separable stencil s = [0.25, 0.5, 0.25] along x and along z, i.e. for each valid node

    Jf_c[k, i] = sum_{dz=-1..1} sum_{dx=-1..1} s[dz] s[dx] J_c[k + dz, i + dx]

reading the guard cells around the valid box. J is one array [3, NZ + 2G, NX + 2G] (Jx, Jy, Jz; the
AMReX box with G = 2 guard cells on each side, x the contiguous axis as in AMReX's Fortran order);
the output is the filtered valid region [3, NZ, NX].
"""
import torch

G = 2  # guard cells on each side

META = {
    "name": "warpx_bilinear_current_filter",
    "level": 1,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"NX": 32, "NZ": 16},
        "ragged": {"NX": 45, "NZ": 23},
        "large": {"NX": 2048, "NZ": 4096},
    },
    "baseline_notes": "Grid (x tiles of 128, z tiles of 16, 3 components); each program loads the 3x3 shifted "
                      "[16, 128] tiles of its component (x contiguous along the lanes, the guard cells give the halo, "
                      "masked at the box edge) and stores the weighted sum. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """J [3, NZ + 2G, NX + 2G]: a deposited laser-wakefield-like current (smooth wake plus particle noise)."""
    s = META["sizes"][size]
    nx, nz = s["NX"], s["NZ"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.linspace(-1.0, 1.0, nx + 2 * G)[None, :]
    z = torch.linspace(0.0, 6.283, nz + 2 * G)[:, None]
    env = torch.exp(-4.0 * x * x)
    wake = torch.stack([env * torch.sin(3.0 * z), 0.1 * env * torch.cos(5.0 * z), env * torch.cos(3.0 * z) * x])
    j = wake + 0.05 * torch.randn(3, nz + 2 * G, nx + 2 * G, generator=g)
    return (j.to(device=device, dtype=dt),)


def reference(j: torch.Tensor) -> torch.Tensor:
    src = j.double()
    nz, nx = src.shape[1] - 2 * G, src.shape[2] - 2 * G
    s = (0.25, 0.5, 0.25)
    out = torch.zeros(3, nz, nx, dtype=torch.float64, device=src.device)
    for a in range(3):
        for b in range(3):
            out += s[a] * s[b] * src[:, G - 1 + a:G - 1 + a + nz, G - 1 + b:G - 1 + b + nx]
    return out.to(j.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_in = 3 * (s["NZ"] + 2 * G) * (s["NX"] + 2 * G)
    n_out = 3 * s["NZ"] * s["NX"]
    return {"bytes": 4 * (n_in + n_out), "flops": 17 * n_out}
