"""Gram matrix of Muon's Newton-Schulz iteration, A = X @ X^T, for a batch of same-shape bf16
matrices (the momentum normalised by its Frobenius norm and cast to bf16). Output bf16 [B, M, M]."""
import torch

META = {
    "name": "muon_ns_gram",
    "level": 2,
    "category": "matmul",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-5, "rtol": 1.6e-2}},
    "sizes": {
        "small": {"B": 2, "M": 48, "K": 80},
        "ragged": {"B": 3, "M": 100, "K": 200},
        "large": {"B": 16, "M": 1024, "K": 4096},
    },
    "baseline_notes": "3-D grid (M tiles, M tiles, batch), autotune with one 128x128x64 config (3 stages, 8 warps), "
                      "tl.dot on the bf16 tiles with an fp32 accumulator, bf16 store.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """X [B, M, K] bf16, each matrix scaled to unit Frobenius norm (X = G / (||G|| + 1e-7))."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    G = torch.randn(s["B"], s["M"], s["K"], generator=g)
    X = G / (G.norm(dim=(-2, -1), keepdim=True) + 1e-7)
    return (X.to(dt).to(device),)


def reference(X: torch.Tensor) -> torch.Tensor:
    Xf = X.float()
    return (Xf @ Xf.mT).to(X.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, M, K = s["B"], s["M"], s["K"]
    return {"bytes": 2 * B * M * K + 2 * B * M * M, "flops": 2 * B * M * M * K}
