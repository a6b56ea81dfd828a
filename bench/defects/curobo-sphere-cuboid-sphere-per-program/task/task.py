"""Robot-sphere vs oriented-cuboid collision cost (cuRobo primitive world collision): for every robot collision
sphere, the sum over obstacles of max(0, r + eta - signed_distance(center, box))."""
import torch

META = {
    "name": "sphere_obb_collision_cost",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 50, "O": 5},
        "ragged": {"N": 67, "O": 9},
        "large": {"N": 851968, "O": 64},
    },
    "baseline_notes": "Grid over blocks of 32 spheres: each program loads the obstacle table once as [1, O] rows, "
                      "evaluates the [32, O] sphere-box signed distances in registers and sums the hinge along the "
                      "obstacle axis; 4 warps.",
    "deterministic": True,
}


def _random_rotations(n: int, g: torch.Generator) -> torch.Tensor:
    q = torch.randn(n, 4, generator=g, dtype=torch.float64)
    w, x, y, z = (q / q.norm(dim=1, keepdim=True)).unbind(1)
    return torch.stack([
        1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
        2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
        2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
    ], dim=1).reshape(n, 3, 3)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """spheres [N, 4] (x, y, z, radius in m), obb_inv [O, 12] (world-to-box rotation R row-major, then t,
    so p_box = R p + t), half_extents [O, 3], activation distance eta."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    N, n_obs = s["N"], s["O"]
    centers = torch.rand(N, 3, generator=g, dtype=torch.float64) * 2.0 - 1.0
    radii = 0.03 + 0.07 * torch.rand(N, 1, generator=g, dtype=torch.float64)
    spheres = torch.cat([centers, radii], dim=1)
    rot = _random_rotations(n_obs, g)
    box_c = torch.rand(n_obs, 3, generator=g, dtype=torch.float64) * 2.0 - 1.0
    t = -(rot @ box_c[:, :, None])[:, :, 0]
    obb_inv = torch.cat([rot.reshape(n_obs, 9), t], dim=1)
    half = 0.05 + 0.35 * torch.rand(n_obs, 3, generator=g, dtype=torch.float64)
    return spheres.to(dt).to(device), obb_inv.to(dt).to(device), half.to(dt).to(device), 0.025


def reference(spheres: torch.Tensor, obb_inv: torch.Tensor, half: torch.Tensor, eta: float) -> torch.Tensor:
    p = spheres[:, :3].double()
    r = spheres[:, 3].double()
    rot = obb_inv[:, :9].double().reshape(-1, 3, 3)
    t = obb_inv[:, 9:].double()
    local = torch.einsum("oij,nj->noi", rot, p) + t[None]
    q = local.abs() - half.double()[None]
    outside = q.clamp(min=0.0).norm(dim=2)
    inside = q.max(dim=2).values.clamp(max=0.0)
    sd = outside + inside
    return torch.clamp(r[:, None] + eta - sd, min=0.0).sum(dim=1).to(spheres.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 16 * s["N"] + 60 * s["O"] + 4 * s["N"], "flops": 40 * s["N"] * s["O"]}
