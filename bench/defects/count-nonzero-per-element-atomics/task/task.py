"""Count of non-zero elements over a whole tensor (torch.count_nonzero(x), dim=None): a 0-dim int64 result."""
import torch

META = {
    "name": "count_nonzero",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32", "bfloat16"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}, "bfloat16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 5000},
        "ragged": {"N": 1000003},
        "large": {"N": 8388608},
    },
    "baseline_notes": "Two stages as FlagGems: 4096-element programs store their non-zero count (tl.sum) to a mid "
                      "buffer, then one program sums the mid buffer; no atomics.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N] with about 40% exact zeros (ReLU activations / pruned weights)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    x = torch.relu(torch.randn(n, generator=g) + 0.25)
    return (x.to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.count_nonzero(x)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 8, "flops": n}
