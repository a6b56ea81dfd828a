"""EmbeddingBag, mode='sum' (DLRM / recommendation lookups): out[b] = sum of table rows indices[offsets[b]:offsets[b+1]]."""
import torch

META = {
    "name": "embedding_bag_sum",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"V": 200, "D": 64, "B": 12, "max_bag": 9},
        "ragged": {"V": 10007, "D": 96, "B": 1001, "max_bag": 40},
        "large": {"V": 100000, "D": 128, "B": 16384, "max_bag": 63},
    },
    "baseline_notes": "One program per bag loops over its indices, accumulating the gathered rows in an fp32 "
                      "register tile, one store per bag; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """table [V, D] standard normals; indices [N] int64; offsets [B + 1] int64 (bag sizes 1..max_bag)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    table = torch.randn(s["V"], s["D"], generator=g)
    sizes = torch.randint(1, s["max_bag"] + 1, (s["B"],), generator=g)
    offsets = torch.zeros(s["B"] + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(sizes, 0)
    indices = torch.randint(0, s["V"], (int(offsets[-1]),), generator=g)
    return table.to(device), indices.to(device), offsets.to(device)


def reference(table: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.embedding_bag(indices, table.double(), offsets, mode="sum",
                                             include_last_offset=True).to(table.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * (s["max_bag"] + 1) // 2
    return {"bytes": 4 * s["D"] * (n + s["B"]) + 8 * (n + s["B"]), "flops": n * s["D"]}
