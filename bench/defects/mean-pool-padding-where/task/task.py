"""Masked mean pooling of token embeddings over the valid (unpadded) positions of each sequence (sentence-transformers Pooling mean mode; right-padded batch given by lengths)."""
import torch

META = {
    "name": "masked_mean_pool",
    "level": 2,
    "category": "reduction",
    "dtypes": ["bfloat16", "float16", "float32"],
    "tolerance": {"bfloat16": {"atol": 1e-3, "rtol": 1e-3}, "float16": {"atol": 1e-3, "rtol": 1e-3},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 3, "L": 70, "D": 200},
        "ragged": {"B": 37, "L": 509, "D": 1000},
        "large": {"B": 128, "L": 1024, "D": 1024},
    },
    "baseline_notes": "Grid (sequence, 128-wide feature block); each program walks the padded length in 32-row "
                      "tiles, loading only rows below the sequence's length (the length in the load mask), fp32 "
                      "sum divided by max(length, 1); no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """hidden [B, L, D] of standard normals and lengths [B] (int32, uniform in 1..L, one sequence full)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    hidden = torch.randn(s["B"], s["L"], s["D"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    lengths = torch.randint(1, s["L"] + 1, (s["B"],), generator=g, dtype=torch.int32)
    lengths[0] = s["L"]
    return hidden.to(device), lengths.to(device)


def reference(hidden: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    pos = torch.arange(hidden.shape[1], device=hidden.device)
    mask = (pos[None, :] < lengths[:, None].long()).float()
    summed = (hidden.float() * mask[:, :, None]).sum(dim=1)
    return summed / lengths.float().clamp(min=1)[:, None]


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    # the expected valid fraction is about half: bytes of the rows the result depends on
    n = s["B"] * (s["L"] + 1) // 2 * s["D"]
    return {"bytes": n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 4 * s["B"] * s["D"], "flops": n}
