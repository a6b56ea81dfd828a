"""SCHISM depth-averaged horizontal velocity (dav) from the 3-D velocity on the vertical levels.

SCHISM keeps its 3-D nodal fields level by level, Fortran su2(nvrt, npa), sv2(nvrt, npa), znl(nvrt, npa):
each node's column of nvrt levels (bottom k = 0 to free surface k = nvrt - 1) is contiguous, i.e. the C-order
tensors [npa, nvrt]. On LSC2 / SZ grids a node has fewer active levels than nvrt; the levels below its
bottom index kbp are collapsed onto the bed (same z, same velocity), so they add nothing below. After the
momentum solve every step computes, per node, the trapezoidal depth integral
    htot  = znl[nvrt-1] - znl[0]
    dav_u = sum_k 0.5 (su2[k] + su2[k+1]) (znl[k+1] - znl[k]) / htot     (same for v)
and sets dav to 0 at dry nodes (htot <= h0, h0 the minimum wet depth). Returns (dav_u, dav_v), [npa] fp32.
"""
import torch

META = {
    "name": "schism_depth_avg_velocity",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"npa": 48, "nvrt": 11},
        "ragged": {"npa": 37, "nvrt": 23},
        "large": {"npa": 64000, "nvrt": 41},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 32 nodes; each block loads "
                      "[32, next_power_of_2(nvrt)] tiles of z, u and v at levels k and k + 1 (rows contiguous), "
                      "sums the layer integrals along the level axis and stores 32 dav_u and dav_v values. "
                      "No autotune.",
    "deterministic": True,
}
H0 = 0.01  # SCHISM's minimum wet depth [m]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """su2, sv2, znl as [npa, nvrt] (m/s, m/s, m), then h0 (m)."""
    s = META["sizes"][size]
    npa, nvrt = s["npa"], s["nvrt"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f64 = dict(generator=g, dtype=torch.float64)
    depth = 0.5 + 40.0 * torch.rand(npa, **f64) ** 2              # bathymetry below datum
    eta = torch.maximum(0.8 * torch.randn(npa, **f64), -depth + 0.2)   # surface above the bed
    dry = torch.rand(npa, **f64) < 0.06
    eta = torch.where(dry, -depth + 0.5 * H0, eta)                 # drained nodes on the tidal flats
    htot = eta + depth
    kbp = torch.clamp((nvrt - 1) - torch.ceil(htot.clamp(min=0.0) / 1.5).long(), min=0)   # ~1.5 m levels
    kbp = torch.minimum(kbp, torch.full_like(kbp, nvrt - 3))
    k = torch.arange(nvrt, dtype=torch.float64)
    active = (nvrt - 1 - kbp).double()
    sigma = ((k[None, :] - kbp[:, None].double()) / active[:, None]).clamp(min=0.0)   # 0 at the bed, 1 on top
    znl = -depth[:, None] + sigma * htot[:, None]
    shear = torch.log1p(30.0 * sigma) / torch.log1p(torch.tensor(30.0, dtype=torch.float64))
    u_top = 1.2 * torch.randn(npa, **f64)
    v_top = 1.2 * torch.randn(npa, **f64)
    su2 = u_top[:, None] * shear + 0.05 * torch.randn(npa, nvrt, **f64)
    sv2 = v_top[:, None] * shear + 0.05 * torch.randn(npa, nvrt, **f64)
    below = k[None, :] < kbp[:, None].double()
    kb = kbp[:, None]
    su2 = torch.where(below, su2.gather(1, kb), su2)               # collapsed levels carry the bottom value
    sv2 = torch.where(below, sv2.gather(1, kb), sv2)
    to = dict(device=device, dtype=dt)
    return su2.to(**to), sv2.to(**to), znl.to(**to), H0


def reference(su2: torch.Tensor, sv2: torch.Tensor, znl: torch.Tensor, h0: float) -> tuple:
    u, v, z = su2.double(), sv2.double(), znl.double()
    dz = z[:, 1:] - z[:, :-1]
    htot = z[:, -1] - z[:, 0]
    wet = htot > h0
    inv = 1.0 / htot.clamp(min=h0)
    du = torch.where(wet, (0.5 * (u[:, 1:] + u[:, :-1]) * dz).sum(1) * inv, torch.zeros_like(htot))
    dv = torch.where(wet, (0.5 * (v[:, 1:] + v[:, :-1]) * dz).sum(1) * inv, torch.zeros_like(htot))
    return du.to(su2.dtype), dv.to(su2.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    npa, nvrt = s["npa"], s["nvrt"]
    return {"bytes": 12 * npa * nvrt + 8 * npa, "flops": 10 * npa * nvrt}
