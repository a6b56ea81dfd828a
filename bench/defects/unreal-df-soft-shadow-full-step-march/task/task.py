"""Distance-field soft shadows: one shadow ray per G-buffer pixel sphere-traced through an SDF volume.

Inigo Quilez's soft-shadow march (the technique of Unreal Engine's distance-field shadows): from each
surface point p toward a point light, t starts at T_MIN; every step samples the SDF h at p + t*l
(trilinear, volume spanning [-1, 1]^3, sdf[z, y, x]), keeps res = min(res, K*h/t) and advances t by
h clamped to [MIN_STEP, MAX_STEP]; a ray stops once res <= RES_EPS or t >= the light distance, and
after MAX_STEPS steps at the latest. The output is clamp(res, 0, 1), 0 = umbra, 1 = lit.
"""
import torch

K, T_MIN, MIN_STEP, MAX_STEP, RES_EPS, MAX_STEPS = 8.0, 0.02, 0.005, 0.5, 5e-4, 128

META = {
    "name": "df_soft_shadow",
    "level": 2,
    "category": "graphics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"W": 16, "H": 8, "R": 24},
        "ragged": {"W": 37, "H": 11, "R": 29},
        "large": {"W": 1920, "H": 1080, "R": 256},
    },
    "baseline_notes": "One program per 128 consecutive pixels (4 warps): loads the points and the light, then a "
                      "while loop that marches until no ray of the block is live (or MAX_STEPS), 8-corner "
                      "trilinear SDF gathers per step; no autotune.",
    "deterministic": True,
}


def _scene_sdf(x, y, z, jit):
    """Three spheres, a box and a torus resting above the ground plane y = -0.9."""
    d = torch.full_like(x, 1e9)
    for i, (cx, cy, cz, r) in enumerate([(-0.45, -0.6, -0.3, 0.3), (0.35, -0.7, 0.35, 0.2), (0.1, -0.75, -0.55, 0.15)]):
        cx, cz = cx + jit[2 * i], cz + jit[2 * i + 1]
        d = torch.minimum(d, ((x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2).sqrt() - r)
    qx, qy, qz = (x - 0.4 - jit[6]).abs() - 0.15, (y + 0.65).abs() - 0.25, (z + 0.25 - jit[7]).abs() - 0.12
    outside = (qx.clamp(min=0) ** 2 + qy.clamp(min=0) ** 2 + qz.clamp(min=0) ** 2).sqrt()
    d = torch.minimum(d, outside + torch.maximum(qx, torch.maximum(qy, qz)).clamp(max=0))
    ring = ((x + 0.3) ** 2 + (z - 0.45) ** 2).sqrt() - 0.22
    return torch.minimum(d, (ring ** 2 + (y + 0.82) ** 2).sqrt() - 0.07)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """points [H*W, 3] on the ground (row-major pixels), light [3], sdf [R, R, R] (sdf[z, y, x])."""
    s = META["sizes"][size]
    W, H, R = s["W"], s["H"], s["R"]
    g = torch.Generator().manual_seed(seed)
    jit = (torch.rand(8, generator=g) - 0.5) * 0.06
    light = torch.tensor([0.5, 0.85, 0.3]) + (torch.rand(3, generator=g) - 0.5) * 0.1
    c = torch.linspace(-1.0, 1.0, R, device=device)
    sdf = _scene_sdf(c[None, None, :], c[None, :, None], c[:, None, None], jit.tolist())
    zs, xs = torch.linspace(-0.85, 0.85, H), torch.linspace(-0.95, 0.95, W)
    pz, px = torch.meshgrid(zs, xs, indexing="ij")
    points = torch.stack([px, torch.full_like(px, -0.9), pz], dim=-1).reshape(-1, 3)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return points.to(device=device, dtype=dt), light.to(device=device, dtype=dt), sdf.to(dt).contiguous()


def _trilinear(sdf, p):
    R = sdf.shape[0]
    u = ((p + 1.0) * (0.5 * (R - 1))).clamp(0.0, R - 1.0)
    i0 = u.to(torch.int64).clamp(max=R - 2)
    f = u - i0
    flat = sdf.reshape(-1)
    out = torch.zeros_like(u[:, 0])
    for dz in (0, 1):
        for dy in (0, 1):
            for dx in (0, 1):
                w = ((f[:, 0] if dx else 1 - f[:, 0]) * (f[:, 1] if dy else 1 - f[:, 1])
                     * (f[:, 2] if dz else 1 - f[:, 2]))
                out = out + w * flat[((i0[:, 2] + dz) * R + i0[:, 1] + dy) * R + i0[:, 0] + dx]
    return out


def reference(points: torch.Tensor, light: torch.Tensor, sdf: torch.Tensor) -> torch.Tensor:
    to_light = light[None, :] - points
    tmax = to_light.norm(dim=1)
    l = to_light / tmax[:, None]
    t = torch.full_like(tmax, T_MIN)
    res = torch.ones_like(tmax)
    live = torch.ones_like(tmax, dtype=torch.bool)
    for _ in range(MAX_STEPS):
        if not bool(live.any()):
            break
        h = _trilinear(sdf, points + t[:, None] * l)
        res = torch.where(live, torch.minimum(res, K * h / t), res)
        t = torch.where(live, t + h.clamp(MIN_STEP, MAX_STEP), t)
        live = live & (res > RES_EPS) & (t < tmax)
    return res.clamp(0.0, 1.0)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["W"] * s["H"]
    steps = 24  # typical steps per ray of the scene
    return {"bytes": 4 * (4 * n + s["R"] ** 3), "flops": 60 * steps * n}
