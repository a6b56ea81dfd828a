"""DeepSORT appearance cost: nearest-neighbour cosine distance between track galleries and detections.

NearestNeighborDistanceMetric("cosine", budget=G): track t keeps its last counts[t] <= G L2-normalised
re-id embeddings (gallery rows 0..counts[t]-1); cost[t, d] = min over those rows of 1 - <gallery, det_d>.
"""
import torch

META = {
    "name": "deepsort_cosine_gallery_cost",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"T": 4, "G": 10, "D": 32, "ND": 8},
        "ragged": {"T": 5, "G": 13, "D": 48, "ND": 11},
        "large": {"T": 1024, "G": 100, "D": 512, "ND": 512},
    },
    "baseline_notes": "Persistent grid of min(20, items) programs over (track, 128-detection) items: per item a "
                      "128-row gallery tile (the budget padded) times the detection tile with tl.dot over "
                      "128-wide K chunks in fp16 with an fp32 accumulator, masked rows past counts[t], row max, "
                      "store 1 - max; no autotune.",
    "deterministic": True,
}


def _unit(x: torch.Tensor) -> torch.Tensor:
    return x / x.norm(dim=-1, keepdim=True)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """gallery [T, G, D] unit rows (rows past counts[t] are stale), counts [T] int32 in 1..G, dets [ND, D] unit rows."""
    s = META["sizes"][size]
    T, G, D, ND = s["T"], s["G"], s["D"], s["ND"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    identity = _unit(torch.randn(T, D, generator=g))
    gallery = _unit(identity[:, None, :] + 0.35 * torch.randn(T, G, D, generator=g))
    counts = torch.where(torch.rand(T, generator=g) < 0.7, torch.full((T,), G),
                         torch.randint(1, G + 1, (T,), generator=g)).to(torch.int32)
    owner = torch.randint(0, T, (ND,), generator=g)
    dets = _unit(identity[owner] + 0.35 * torch.randn(ND, D, generator=g))
    return gallery.to(dt).to(device), counts.to(device), dets.to(dt).to(device)


def reference(gallery: torch.Tensor, counts: torch.Tensor, dets: torch.Tensor) -> torch.Tensor:
    sims = torch.einsum("tgd,nd->tgn", gallery.double(), dets.double())
    G = gallery.shape[1]
    valid = torch.arange(G, device=gallery.device)[None, :] < counts[:, None].long()
    sims = sims.masked_fill(~valid[:, :, None], float("-inf"))
    return (1.0 - sims.amax(dim=1)).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, G, D, ND = s["T"], s["G"], s["D"], s["ND"]
    return {"bytes": 2 * T * G * D + 2 * ND * D + 4 * T + 4 * T * ND, "flops": 2 * T * G * D * ND}
