"""VideoMAE tube masking: gather the visible patch tokens of every clip (x[~mask].reshape(B, -1, C)).

The tube mask keeps the same K spatial patches in every one of the T temporal slices, so each clip
has V = T * K visible tokens; ids[b] lists their token indices (t * HW + patch) in ascending order.
"""
import torch

META = {
    "name": "videomae_tube_mask_gather",
    "level": 2,
    "category": "gather",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 2, "T": 2, "HW": 16, "K": 4, "C": 48},
        "ragged": {"B": 3, "T": 3, "HW": 25, "K": 6, "C": 40},
        "large": {"B": 32, "T": 8, "HW": 196, "K": 20, "C": 768},
    },
    "baseline_notes": "Persistent grid of min(40, tiles) programs looping over (clip, 32-token) tiles: the tile's "
                      "token ids are loaded once, then each token row is copied as contiguous 256-column chunks "
                      "(one DMA burst per row and chunk); no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, T*HW, C] patch tokens after patch embedding + pos embed, ids [B, T*K] int32 visible token ids."""
    s = META["sizes"][size]
    B, T, HW, K, C = s["B"], s["T"], s["HW"], s["K"], s["C"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(B, T * HW, C, generator=g).to(dt)
    ids = torch.empty(B, T * K, dtype=torch.int32)
    for b in range(B):
        keep = torch.sort(torch.randperm(HW, generator=g)[:K]).values
        ids[b] = (torch.arange(T)[:, None] * HW + keep[None, :]).reshape(-1).to(torch.int32)
    return x.to(device), ids.to(device)


def reference(x: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    C = x.shape[2]
    return torch.gather(x, 1, ids.long()[:, :, None].expand(-1, -1, C))


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    V = s["T"] * s["K"]
    return {"bytes": 2 * 2 * s["B"] * V * s["C"] + 4 * s["B"] * V, "flops": 0}
