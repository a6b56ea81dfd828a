"""FlagGems constant_pad_nd on the last dim (F.pad(x, (0, P - D), value=0.0)): head_dim 96 padded to 128 for an attention kernel."""
import torch

META = {
    "name": "pad_last_dim",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"R": 50, "D": 24, "P": 32},
        "ragged": {"R": 10007, "D": 80, "P": 128},
        "large": {"R": 1048576, "D": 96, "P": 128},
    },
    "baseline_notes": "torch.empty output; one program per 64 rows writes every padded column (x inside, value outside).",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Head rows [R, D] (tokens x heads flattened), the padded width P and the pad value."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return torch.randn(s["R"], s["D"], generator=g).to(dt).to(device), s["P"], 0.0


def reference(x: torch.Tensor, width: int, value: float) -> torch.Tensor:
    return torch.nn.functional.pad(x, (0, width - x.shape[1]), value=value)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["R"] * (s["D"] + s["P"]) * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 0}
