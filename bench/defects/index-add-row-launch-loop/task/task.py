"""Out-of-place index_add along dim 0 (torch.index_add(x, 0, index, source, alpha=alpha)): rows of source added into the rows of x that index names, duplicates accumulating."""
import torch

META = {
    "name": "index_add",
    "level": 1,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 40, "N": 48, "K": 16},
        "ragged": {"M": 3001, "N": 1000, "K": 777},
        "large": {"M": 65536, "N": 1024, "K": 4096},
    },
    "baseline_notes": "A copy kernel writes x into the output, then one launch over (source row, 1024-column block) "
                      "adds alpha * source with tl.atomic_add at the indexed rows; no autotune.",
    "deterministic": False,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N], index [K] int64 (random rows of x, repeats allowed), source [K, N], alpha."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["M"], s["N"], generator=g).to(dt)
    index = torch.randint(0, s["M"], (s["K"],), generator=g)
    source = torch.randn(s["K"], s["N"], generator=g).to(dt)
    return x.to(device), index.to(device), source.to(device), 0.5


def reference(x: torch.Tensor, index: torch.Tensor, source: torch.Tensor, alpha: float) -> torch.Tensor:
    return torch.index_add(x, 0, index, source, alpha=alpha)


def check(inputs: tuple, output: torch.Tensor) -> str | None:
    """Atomic accumulation order varies: compare within float tolerance."""
    ref = reference(*inputs)
    if output.shape != ref.shape or not torch.allclose(output, ref, atol=1e-5, rtol=1e-5):
        return "index_add result differs from torch.index_add beyond 1e-5."
    return None


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (2 * s["M"] * s["N"] + 2 * s["K"] * s["N"]) * item + 8 * s["K"], "flops": 2 * s["K"] * s["N"]}
