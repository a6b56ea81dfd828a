"""repeat_interleave along dim 0 with per-row counts (torch.repeat_interleave(x, repeats, dim=0, output_size=...))."""
import torch

META = {
    "name": "repeat_interleave_rows",
    "level": 1,
    "category": "gather",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 0, "rtol": 0}, "float16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 37, "H": 100},
        "ragged": {"B": 1001, "H": 300},
        "large": {"B": 65536, "H": 128},
    },
    "baseline_notes": "One-program tl.cumsum of the counts into row ends, then [16, H] output tiles whose source rows "
                      "come from a vectorised binary search over the ends (B.bit_length() steps); 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, H] per-segment features, repeats [B] int64 in 0..7 (tokens per segment), output_size = repeats.sum()."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["B"], s["H"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    repeats = torch.randint(0, 8, (s["B"],), generator=g, dtype=torch.int64)
    return x.to(device), repeats.to(device), int(repeats.sum())


def reference(x: torch.Tensor, repeats: torch.Tensor, output_size: int) -> torch.Tensor:
    return torch.repeat_interleave(x, repeats, dim=0, output_size=output_size)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    out_rows = int(3.5 * s["B"])
    return {"bytes": item * s["H"] * (s["B"] + out_rows) + 8 * s["B"], "flops": 0}
