"""MoE router gate logits: logits = x @ W_gate^T (nn.Linear without bias, [E, H] weight), fp32 result."""
import torch

META = {
    "name": "router_gate",
    "level": 1,
    "category": "gemm",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 1e-2}, "float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"T": 20, "H": 64, "E": 16},
        "ragged": {"T": 1001, "H": 1000, "E": 60},
        "large": {"T": 16384, "H": 4096, "E": 64},
    },
    "baseline_notes": "One program per vector core (48 on an A2) looping over 64-token blocks: tl.dot of the [64, 128] "
                      "x tile with the transposed [E, 128] weight tile (loaded contiguous, tl.trans on chip), fp32 "
                      "accumulator.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [T, H] hidden states, w [E, H] router weight."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["T"], s["H"], generator=g)
    w = torch.randn(s["E"], s["H"], generator=g) / s["H"] ** 0.5
    return x.to(dt).to(device), w.to(dt).to(device)


def reference(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return x.float() @ w.float().t()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    it = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (s["T"] + s["E"]) * s["H"] * it + 4 * s["T"] * s["E"], "flops": 2 * s["T"] * s["H"] * s["E"]}
