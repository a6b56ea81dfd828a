"""Bucketize (torch.bucketize(x, boundaries), right=False): for each value the index of the first boundary >= it, int64."""
import torch

META = {
    "name": "bucketize",
    "level": 1,
    "category": "sort",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 3000, "NB": 37},
        "ragged": {"N": 1000003, "NB": 1000},
        "large": {"N": 16777216, "NB": 1024},
    },
    "baseline_notes": "Flat grid of 1024-value programs; a vectorised binary search over the sorted boundaries "
                      "(NB.bit_length() halving steps, each a gather from the L1-resident boundary table); 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N] values and boundaries [NB] sorted ascending (quantiles of a feature, as DLRM / histogram binning use)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["N"], generator=g) * 1.2
    boundaries = torch.sort(torch.randn(s["NB"], generator=g)).values
    return x.to(dt).to(device), boundaries.to(dt).to(device)


def reference(x: torch.Tensor, boundaries: torch.Tensor) -> torch.Tensor:
    return torch.bucketize(x, boundaries)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 12 * s["N"] + 4 * s["NB"], "flops": s["N"] * max(1, s["NB"].bit_length())}
