"""Row-wise top-k of logits, sorted descending, with int64 indices (torch.topk), as in top-k sampling."""
import torch

META = {
    "name": "topk",
    "level": 1,
    "category": "sort",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"M": 16, "N": 128, "k": 8},
        "ragged": {"M": 1000, "N": 1531, "k": 5},
        "large": {"M": 4096, "N": 32000, "k": 16},
    },
    "baseline_notes": "One program per row, BLOCK = next_power_of_2(N), the whole row in "
                      "registers; k rounds of max/argmax, each masking out the winner; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Logits [M, N] (fp32, so ties are vanishingly rare) and k."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g)
    return x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])), s["k"]


def reference(x: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    values, indices = torch.topk(x, k, dim=-1)
    return values, indices


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": s["M"] * s["N"] * item + s["M"] * s["k"] * (item + 8),
            "flops": s["M"] * s["N"] * s["k"]}
