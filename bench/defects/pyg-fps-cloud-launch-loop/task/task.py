"""Farthest point sampling over a batch of point clouds of different sizes (torch_cluster.fps(pos, batch,
ratio, random_start=False) as called by PyG's PointNet++ SAModule): each cloud starts at its first point and
repeatedly picks the point farthest from everything picked so far. Output: global int64 indices, cloud by cloud."""
import torch

META = {
    "name": "batched_fps",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"sizes": [40, 40, 40], "ratio": 0.5},
        "ragged": {"sizes": [37, 64, 100, 5, 71], "ratio": 0.5},
        "large": {"sizes": [1024] * 32, "ratio": 0.5},
    },
    "baseline_notes": "One launch, one program per cloud (grid = number of clouds): the cloud's coordinates and "
                      "running min-distances stay in registers (BLOCK = next_pow2(max cloud size)); each step is a "
                      "distance update and a block argmax.",
    "deterministic": True,
}


def _plan(sizes: list[int], ratio: float) -> tuple[list[int], list[int]]:
    ptr, out_ptr = [0], [0]
    for n in sizes:
        ptr.append(ptr[-1] + n)
        out_ptr.append(out_ptr[-1] + int(-(-n * ratio // 1)))
    return ptr, out_ptr


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos [N, 3] (coordinates on a 1/64 m grid inside +-8 m, so squared distances are exact in fp32),
    ptr [B + 1] int32 (CSR offsets of the clouds), out_ptr [B + 1] int32 (offsets of the samples, ceil(n * ratio)
    per cloud), the largest cloud size and the total number of samples."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ptr, out_ptr = _plan(s["sizes"], s["ratio"])
    n = ptr[-1]
    pos = torch.randint(-512, 512, (n, 3), generator=g).to(torch.float32) / 64.0
    pos[:, 2] *= 0.25
    return (pos.to(dt).to(device), torch.tensor(ptr, dtype=torch.int32, device=device),
            torch.tensor(out_ptr, dtype=torch.int32, device=device), max(s["sizes"]), out_ptr[-1])


def reference(pos: torch.Tensor, ptr: torch.Tensor, out_ptr: torch.Tensor, max_points: int,
              num_samples: int) -> torch.Tensor:
    dev = pos.device
    ptr_l, optr_l = ptr.tolist(), out_ptr.tolist()
    b = len(ptr_l) - 1
    counts = [ptr_l[i + 1] - ptr_l[i] for i in range(b)]
    samples = [optr_l[i + 1] - optr_l[i] for i in range(b)]
    pad = torch.zeros(b, max_points, 3, dtype=torch.float64, device=dev)
    valid = torch.zeros(b, max_points, dtype=torch.bool, device=dev)
    for i in range(b):
        pad[i, :counts[i]] = pos[ptr_l[i]:ptr_l[i + 1]].double()
        valid[i, :counts[i]] = True
    dist = torch.where(valid, torch.full_like(valid, float("inf"), dtype=torch.float64),
                       torch.full_like(valid, -1.0, dtype=torch.float64))
    cur = torch.zeros(b, dtype=torch.long, device=dev)
    picks = [cur.clone()]
    rows = torch.arange(b, device=dev)
    for _ in range(1, max(samples)):
        p = pad[rows, cur]
        d = ((pad - p[:, None, :]) ** 2).sum(-1)
        dist = torch.where(valid, torch.minimum(dist, d), dist)
        cur = dist.argmax(dim=1)
        picks.append(cur.clone())
    picks = torch.stack(picks, dim=1)
    start = torch.tensor(ptr_l[:-1], dtype=torch.long, device=dev)
    out = [picks[i, :samples[i]] + start[i] for i in range(b)]
    return torch.cat(out)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    ptr, out_ptr = _plan(s["sizes"], s["ratio"])
    steps = [out_ptr[i + 1] - out_ptr[i] - 1 for i in range(len(s["sizes"]))]
    return {"bytes": 12 * ptr[-1] + 8 * out_ptr[-1] + 8 * len(ptr),
            "flops": sum(9 * n * k for n, k in zip(s["sizes"], steps, strict=True))}
