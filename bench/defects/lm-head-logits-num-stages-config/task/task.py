"""LM-head logits, logits = hidden @ W^T with the [vocab, hidden] weight of nn.Linear / a tied embedding (Llama-2 lm_head, vocab 32000)."""
import torch

META = {
    "name": "lm_head_logits",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}, "float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 33, "N": 200, "K": 64},
        "ragged": {"M": 1000, "N": 5003, "K": 512},
        "large": {"M": 2048, "N": 32000, "K": 4096},
    },
    "baseline_notes": "Tiled tl.dot GEMM, 128 x 128 x 64 tiles, W read as a transposed [K, N] tile through its "
                      "strides, grouped program order (GROUP_M 8), 8 warps, 3 pipeline stages, fp32 accumulator; "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """hidden [M, K] of standard normals and the lm_head weight [N, K] (std 0.02)."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["K"], generator=g).to(dt)
    w = (torch.randn(s["N"], s["K"], generator=g) * 0.02).to(dt)
    return x.to(device), w.to(device)


def reference(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return (x.float() @ w.float().t()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (s["M"] * s["K"] + s["N"] * s["K"] + s["M"] * s["N"]) * item,
            "flops": 2 * s["M"] * s["N"] * s["K"]}
