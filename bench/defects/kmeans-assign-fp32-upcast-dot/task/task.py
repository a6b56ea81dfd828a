"""k-means assignment step (cuML / FAISS KMeans predict): label of the nearest centroid for every point, fp16 data."""
import torch

META = {
    "name": "kmeans_assign",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 200, "K": 24, "D": 32},
        "ragged": {"N": 333, "K": 37, "D": 48},
        "large": {"N": 1048576, "K": 1024, "D": 128},
    },
    "baseline_notes": "Centroid squared norms in a first small kernel; then one program per 128 points holds its [128, D] "
                      "point tile, walks the centroids in tiles of 64 with an fp16 tl.dot (fp32 accumulate) for "
                      "|c|^2 - 2 x.c and keeps a running min / argmin; 8 warps, 3 stages.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """points [N, D] and centroids [K, D] (centroids drawn around cluster centres, points around them)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    centres = torch.randn(s["K"], s["D"], generator=g)
    owner = torch.randint(0, s["K"], (s["N"],), generator=g)
    points = centres[owner] + 0.6 * torch.randn(s["N"], s["D"], generator=g)
    centroids = centres + 0.1 * torch.randn(s["K"], s["D"], generator=g)
    return points.to(dt).to(device), centroids.to(dt).to(device)


def reference(points: torch.Tensor, centroids: torch.Tensor) -> torch.Tensor:
    x = points.double()
    c = centroids.double()
    d = (c * c).sum(1)[None, :] - 2.0 * x @ c.t()
    return d.argmin(dim=1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 2 * s["N"] * s["D"] + 2 * s["K"] * s["D"] + 8 * s["N"], "flops": 2 * s["N"] * s["K"] * s["D"]}
