"""x.repeat_interleave(repeats, dim=0) with a per-row repeats tensor (FlagGems repeat_interleave_self_tensor), e.g. expanding per-request rows to per-sample rows in beam / parallel sampling."""
import torch

META = {
    "name": "repeat_interleave_rows",
    "level": 1,
    "category": "gather",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 0, "rtol": 0}, "bfloat16": {"atol": 0, "rtol": 0},
                  "float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"M": 10, "D": 96},
        "ragged": {"M": 1001, "D": 1531},
        "large": {"M": 4096, "D": 4096},
    },
    "baseline_notes": "One launch: a one-program tl.cumsum kernel turns repeats into output row offsets, then one "
                      "program per input row stores its row repeats[i] times, D in 1024-column blocks; the output "
                      "length comes from repeats.tolist(); no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, D] of standard normals and repeats [M] int64 in 0..7."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["D"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    repeats = torch.randint(0, 8, (s["M"],), generator=g)
    return x.to(device), repeats.to(device)


def reference(x: torch.Tensor, repeats: torch.Tensor) -> torch.Tensor:
    return x.repeat_interleave(repeats, dim=0)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    out_rows = 3.5 * s["M"]  # mean of repeats
    return {"bytes": int((s["M"] + out_rows) * s["D"] * item) + 8 * s["M"], "flops": 0}
