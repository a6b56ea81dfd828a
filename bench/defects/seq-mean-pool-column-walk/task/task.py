"""Mean over the sequence axis (torch.mean(x, dim=1) on [B, L, H] hidden states, unmasked sequence-mean pooling), fp32 accumulate."""
import torch

META = {
    "name": "seq_mean",
    "level": 1,
    "category": "reduction",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}, "float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"B": 3, "L": 70, "H": 96},
        "ragged": {"B": 5, "L": 1001, "H": 1000},
        "large": {"B": 16, "L": 4096, "H": 4096},
    },
    "baseline_notes": "Grid (batch, 256-feature block): each program walks the sequence in [32, 256] tiles read along "
                      "the contiguous feature axis, sums in fp32 registers, one store; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, L, H] hidden states (per-feature offsets, as transformer outputs have)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["B"], s["L"], s["H"], generator=g) + torch.randn(1, 1, s["H"], generator=g)
    return (x.to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return x.float().mean(dim=1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    it = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (s["B"] * s["L"] * s["H"] + s["B"] * s["H"]) * it, "flops": s["B"] * s["L"] * s["H"]}
