"""Capacity-padded MoE expert up-projection as a batched GEMM (GShard / Switch-Transformer expert layer): y[e] = x[e] @ W[e]."""
import torch

META = {
    "name": "moe_expert_bmm",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 3e-2}, "float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"E": 2, "C": 48, "H": 64, "I": 80},
        "ragged": {"E": 4, "C": 1000, "H": 1000, "I": 1500},
        "large": {"E": 8, "C": 2048, "H": 4096, "I": 4096},
    },
    "baseline_notes": "3-D grid (C tile, I tile, expert), 64 x 64 x 32 tiles, a tl.range K loop with num_stages=3 "
                      "(async copies), bf16 tl.dot into fp32; 4 warps; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [E, C, H] (tokens dispatched to each expert, capacity C) and W [E, H, I] in the activation dtype."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["E"], s["C"], s["H"], generator=g)
    w = torch.randn(s["E"], s["H"], s["I"], generator=g) / s["H"] ** 0.5
    return x.to(dt).to(device), w.to(dt).to(device)


def reference(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return torch.bmm(x.float(), w.float()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    e, c, h, i = s["E"], s["C"], s["H"], s["I"]
    return {"bytes": e * (c * h + h * i + c * i) * item, "flops": 2 * e * c * h * i}
