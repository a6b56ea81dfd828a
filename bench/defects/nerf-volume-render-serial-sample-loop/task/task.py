"""NeRF volume-rendering compositing of packed ray samples (nerfacc rendering / torch-ngp composite_rays_train):
per-sample weights w_i = T_i * (1 - exp(-sigma_i * dt_i)) with T_i = exp(-sum_{j<i} sigma_j * dt_j), and the
per-ray accumulated color, depth and opacity."""
import torch

META = {
    "name": "nerf_volume_render_packed",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"R": 6, "min_s": 0, "max_s": 70},
        "ragged": {"R": 9, "min_s": 1, "max_s": 133},
        "large": {"R": 4096, "min_s": 32, "max_s": 480},
    },
    "baseline_notes": "one program per ray; the ray's samples are walked in 128-sample chunks: tl.cumsum of "
                      "sigma*dt inside the chunk plus a carried running sum gives the exclusive optical depth, "
                      "weights are stored per chunk and color/depth/opacity accumulate in vectors; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """sigmas [S], rgbs [S, 3], t_starts [S], t_ends [S], packed_info [R, 2] int32 (first sample, sample count)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    counts = torch.randint(s["min_s"], s["max_s"] + 1, (s["R"],), generator=g)
    starts = torch.cumsum(counts, 0) - counts
    total = int(counts.sum())
    # samples between near=2 and far=6 along each ray, sorted, with occupancy-grid style gaps
    step = torch.rand(total, generator=g) * 0.02 + 0.002
    ray_ids = torch.repeat_interleave(torch.arange(s["R"]), counts)
    before = torch.cumsum(step, 0) - step
    t_starts = 2.0 + before - before[starts.clamp(max=max(total - 1, 0))][ray_ids]
    t_ends = t_starts + step * 0.9
    sigmas = torch.relu(torch.randn(total, generator=g) * 20.0 + 5.0)
    rgbs = torch.rand(total, 3, generator=g)
    packed = torch.stack([starts, counts], 1).to(torch.int32)
    return (sigmas.to(dt).to(device), rgbs.to(dt).to(device), t_starts.to(dt).to(device),
            t_ends.to(dt).to(device), packed.to(device))


def reference(sigmas, rgbs, t_starts, t_ends, packed_info):
    sd, rd, t0, t1 = sigmas.double(), rgbs.double(), t_starts.double(), t_ends.double()
    R = packed_info.shape[0]
    starts = packed_info[:, 0].long()
    counts = packed_info[:, 1].long()
    ray_ids = torch.repeat_interleave(torch.arange(R, device=sd.device), counts)
    tau = sd * (t1 - t0)
    incl = torch.cumsum(tau, 0)
    seg_base = torch.zeros(R, dtype=torch.float64, device=sd.device)
    nz = counts > 0
    seg_base[nz] = (incl - tau)[starts[nz]]
    excl = incl - tau - seg_base[ray_ids]
    w = torch.exp(-excl) * (1.0 - torch.exp(-tau))
    color = torch.zeros(R, 3, dtype=torch.float64, device=sd.device).index_add_(0, ray_ids, w[:, None] * rd)
    depth = torch.zeros(R, dtype=torch.float64, device=sd.device).index_add_(0, ray_ids, w * 0.5 * (t0 + t1))
    opacity = torch.zeros(R, dtype=torch.float64, device=sd.device).index_add_(0, ray_ids, w)
    f = sigmas.dtype
    return w.to(f), color.to(f), depth.to(f), opacity.to(f)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    S = s["R"] * (s["min_s"] + s["max_s"]) // 2
    return {"bytes": S * (4 + 12 + 4 + 4) + S * 4 + s["R"] * (8 + 12 + 4 + 4), "flops": 16 * S}
