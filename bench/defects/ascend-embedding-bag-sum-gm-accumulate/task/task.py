"""Pooled (sum) embedding bag of a multi-hot sparse feature, as torch.nn.functional.embedding_bag
(mode="sum", include_last_offset=True) / FBGEMM's pooled TBE forward for one table:
out[b] = sum over i in [offsets[b], offsets[b + 1]) of weight[indices[i]]. fp32 weights and output."""
import torch

META = {
    "name": "embedding_bag_sum",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 24, "rows": 500, "D": 128, "pool": 6},
        "ragged": {"B": 37, "rows": 3001, "D": 128, "pool": 13},
        "large": {"B": 16384, "rows": 1_000_000, "D": 128, "pool": 100},
    },
    "baseline_notes": "One program per vector core, bags strided over the cores; each bag gathers its rows "
                      "one index at a time into a [D] fp32 accumulator kept on chip and stores it once.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """weight [rows, D] fp32, indices [N] int32 (power-law ids, hot rows repeat), offsets [B + 1] int32
    (bag lengths uniform in [0, 2 * pool], so some bags are empty)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    weight = torch.randn(s["rows"], s["D"], generator=g) * 0.05
    lens = torch.randint(0, 2 * s["pool"] + 1, (s["B"],), generator=g)
    offsets = torch.zeros(s["B"] + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(lens, 0)
    n = int(offsets[-1])
    u = torch.rand(n, generator=g)
    indices = (u ** 3 * s["rows"]).to(torch.int64).clamp_(max=s["rows"] - 1)
    return weight.to(device), indices.to(torch.int32).to(device), offsets.to(torch.int32).to(device)


def reference(weight: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    out = torch.nn.functional.embedding_bag(indices.long(), weight.double(), offsets.long(),
                                            mode="sum", include_last_offset=True)
    return out.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["pool"]
    return {"bytes": 4 * n * s["D"] + 4 * n + 4 * (s["B"] + 1) + 4 * s["B"] * s["D"], "flops": n * s["D"]}
