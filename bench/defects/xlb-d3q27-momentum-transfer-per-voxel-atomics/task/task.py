"""Momentum-exchange force on a solid body (XLB MomentumTransfer, D3Q27, halfway bounce-back wall).

XLB evaluates drag and lift on an immersed geometry (its wind-tunnel example: a car in a 512 x 128 x 128
D3Q27 tunnel) with the momentum exchange method (Ladd 1994; Mei et al. 2002). A voxel is a boundary
("edge") voxel when boundary_map holds the body's BC id and its own centre is not missing; each of its
missing directions l (the pull source x - c_l lies in the solid) exchanges momentum with the wall:
    phi_l = f_post_collision[opp(l)] + f_post_stream[l],   F += sum_l phi_l c_opp(l)
and with halfway bounce-back f_post_stream[l] = f_post_collision[opp(l)], so phi_l = 2 f[opp(l)].
Inputs: f [27, NX, NY, NZ] fp32 post-collision populations, boundary_map [1, NX, NY, NZ] uint8,
missing_mask [27, NX, NY, NZ] bool, velocity set c int32 [3, 27] (XLB's itertools order, rest at 0),
opp int32 [27], the body's BC id. Returns the total force fp32 [3].
"""
import itertools

import torch

META = {
    "name": "lbm_momentum_transfer_force",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"NX": 16, "NY": 8, "NZ": 8},
        "ragged": {"NX": 21, "NY": 9, "NZ": 11},
        "large": {"NX": 512, "NY": 128, "NZ": 128},
    },
    "baseline_notes": "1-D grid over voxels, BLOCK = 128 voxels per program, 4 warps; loads the BC id and "
                      "the centre missing flag per voxel, then (masked to edge voxels) the [128, 32] tile of "
                      "missing flags and of f[opp(l)], reduces the per-voxel momentum exchange over the "
                      "directions and the block, and adds the block's three components with one scalar "
                      "atomic each; no autotune.",
    "deterministic": True,
}
INLET, OUTLET, WALL, BODY = 1, 2, 3, 4
WIND = 0.02


def velocity_set() -> tuple:
    c = torch.tensor(list(itertools.product([0, -1, 1], repeat=3)), dtype=torch.int64).T.contiguous()  # [3, 27]
    opp = torch.tensor([next(j for j in range(27) if torch.equal(c[:, j], -c[:, i])) for i in range(27)])
    a = c.abs().sum(0)
    w = torch.tensor([8 / 27, 2 / 27, 1 / 54, 1 / 216], dtype=torch.float64)[a]
    return c, opp, w


def _body(nx: int, ny: int, nz: int) -> torch.Tensor:
    """A car-like solid a quarter of the tunnel long, starting at a quarter of its length, with ground
    clearance: a rounded lower body (super-ellipse cross section) and a cabin on top."""
    x = torch.arange(nx, dtype=torch.float64).view(-1, 1, 1)
    y = torch.arange(ny, dtype=torch.float64).view(1, -1, 1)
    z = torch.arange(nz, dtype=torch.float64).view(1, 1, -1)
    length = max(nx / 4, 3.0)
    x0, yc = nx / 4, (ny - 1) / 2
    half_w, z0, h = max(0.22 * ny, 1.5), max(0.06 * nz, 1.0), max(0.16 * nz, 1.5)
    sx = (x - x0 - length / 2) / (length / 2)
    lower = (sx.abs() ** 6 + ((y - yc) / half_w).abs() ** 4 <= 1.0) & (z >= z0) & (z < z0 + h)
    cabin = (((x - x0 - 0.55 * length) / (0.3 * length)) ** 2 + ((y - yc) / (0.85 * half_w)) ** 2
             + ((z - z0 - h) / (0.7 * h)) ** 2) <= 1.0
    return lower | cabin


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    nx, ny, nz = s["NX"], s["NY"], s["NZ"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    c, opp, w = velocity_set()
    solid = _body(nx, ny, nz)
    # missing[l, x]: the pull source x - c_l is solid or outside the tunnel (XLB streams the BC mask)
    pad = torch.nn.functional.pad(solid[None, None].float(), (1, 1, 1, 1, 1, 1), value=1.0)[0, 0].bool()
    missing = torch.stack([pad[1 - c[0, l]:1 - c[0, l] + nx, 1 - c[1, l]:1 - c[1, l] + ny,
                               1 - c[2, l]:1 - c[2, l] + nz] for l in range(27)])
    missing[0] = solid
    bmap = torch.zeros(nx, ny, nz, dtype=torch.uint8)
    bmap[:, 0, :] = WALL
    bmap[:, -1, :] = WALL
    bmap[:, :, 0] = WALL
    bmap[:, :, -1] = WALL
    bmap[0] = INLET
    bmap[-1] = OUTLET
    near_body = torch.zeros_like(solid)
    for l in range(1, 27):
        sl = [slice(max(0, -int(c[d, l])), n - max(0, int(c[d, l]))) for d, n in enumerate((nx, ny, nz))]
        dl = [slice(max(0, int(c[d, l])), n - max(0, -int(c[d, l]))) for d, n in enumerate((nx, ny, nz))]
        near_body[dl[0], dl[1], dl[2]] |= solid[sl[0], sl[1], sl[2]]
    bmap[solid | near_body] = BODY
    # post-collision populations of the tunnel flow: equilibrium at the wind speed, perturbed
    u = torch.zeros(3, nx, ny, nz, dtype=torch.float64)
    u[0] = WIND * (1.0 + 0.2 * torch.rand(nx, ny, nz, generator=g, dtype=torch.float64))
    u[1:] = 0.004 * (torch.rand(2, nx, ny, nz, generator=g, dtype=torch.float64) - 0.5)
    u[:, solid] = 0.0
    rho = 1.0 + 0.002 * torch.randn(nx, ny, nz, generator=g, dtype=torch.float64)
    u, rho = u.float(), rho.float()
    base = 1.0 - 1.5 * (u * u).sum(0)
    f = torch.empty(27, nx, ny, nz, dtype=torch.float32)
    for l in range(27):
        cu = torch.zeros_like(rho)
        for d in range(3):
            if int(c[d, l]) != 0:
                cu.add_(u[d], alpha=int(c[d, l]))
        noise = torch.randn(rho.shape, generator=g, dtype=torch.float32).mul_(1e-3).add_(1.0)
        f[l] = cu.mul(4.5).add_(3.0).mul_(cu).add_(base).mul_(rho).mul_(float(w[l])).mul_(noise)
    f = f.to(dt)
    return (f.to(device), bmap[None].to(device), missing.to(device),
            c.to(torch.int32).to(device), opp.to(torch.int32).to(device), BODY)


def reference(f: torch.Tensor, boundary_map: torch.Tensor, missing_mask: torch.Tensor, c: torch.Tensor,
              opp: torch.Tensor, body_id: int) -> torch.Tensor:
    q = f.shape[0]
    fd = f.double().reshape(q, -1)
    miss = missing_mask.reshape(q, -1)
    edge = (boundary_map.reshape(-1) == body_id) & ~miss[0]
    o = opp.long()
    phi = 2.0 * fd[o] * (miss & edge[None, :])
    return (c.double()[:, o] @ phi.sum(1)).to(f.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["NX"] * s["NY"] * s["NZ"]
    return {"bytes": 2 * n, "flops": 3 * n}
