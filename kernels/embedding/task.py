"""Token embedding lookup: gather rows of a [V, D] table by token id (torch.nn.Embedding)."""
import torch

META = {
    "name": "embedding",
    "level": 1,
    "category": "gather",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 0.0},
                  "bfloat16": {"atol": 0.0, "rtol": 0.0},
                  "float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"V": 100, "D": 64, "T": 50},
        "ragged": {"V": 32000, "D": 1000, "T": 1531},
        "large": {"V": 32000, "D": 4096, "T": 16384},
    },
    "baseline_notes": "One program per token, BLOCK = next_power_of_2(D) covering the whole "
                      "embedding row; ids read as int64; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """The embedding table [V, D] and int64 token ids [T]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    table = torch.randn(s["V"], s["D"], generator=g)
    ids = torch.randint(0, s["V"], (s["T"],), generator=g)
    return table.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])), ids.to(device)


def reference(table: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.embedding(ids, table)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["T"] * s["D"] * item + 8 * s["T"], "flops": 0}
