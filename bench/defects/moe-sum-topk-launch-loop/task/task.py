"""Sum of the top-k (already routing-weighted) expert outputs per token, out[t] = sum_k x[t, k] (vLLM fused_moe's ops.moe_sum over intermediate_cache3 [T, topk, H])."""
import torch

META = {
    "name": "moe_sum",
    "level": 2,
    "category": "reduction",
    "dtypes": ["bfloat16", "float16", "float32"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}, "float16": {"atol": 5e-3, "rtol": 5e-3},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"T": 9, "K": 2, "H": 300},
        "ragged": {"T": 1001, "K": 6, "H": 2047},
        "large": {"T": 8192, "K": 8, "H": 4096},
    },
    "baseline_notes": "Grid (token, 1024-wide hidden block); each program adds the top-k rows in fp32 registers "
                      "and stores the sum in the input dtype; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [T, K, H] of normals times 0.5 (the weighted expert outputs)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["T"], s["K"], s["H"], generator=g) * 0.5
    return (x.to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return x.float().sum(dim=1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (s["K"] + 1) * s["T"] * s["H"] * item, "flops": s["K"] * s["T"] * s["H"]}
