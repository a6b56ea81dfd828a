"""torch.baddbmm(input, batch1, batch2, beta=0.5, alpha=1.0) in float16 with fp32 accumulation (FlagGems baddbmm)."""
import torch

META = {
    "name": "baddbmm",
    "level": 1,
    "category": "gemm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 2, "M": 48, "N": 80, "K": 256},
        "ragged": {"B": 3, "M": 1000, "N": 777, "K": 1531},
        "large": {"B": 16, "M": 1024, "N": 1024, "K": 4096},
    },
    "baseline_notes": "128x128x64 tl.dot tiles with the batch on the third grid axis, fp32 accumulator over the "
                      "whole K, beta * input + alpha * acc in the epilogue, fp16 store; 8 warps, 3 stages; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """input [B, M, N], batch1 [B, M, K], batch2 [B, K, N] (scaled by 1/sqrt(K)), beta 0.5, alpha 1.0."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    inp = torch.randn(s["B"], s["M"], s["N"], generator=g).to(dt)
    a = torch.randn(s["B"], s["M"], s["K"], generator=g).to(dt)
    b = (torch.randn(s["B"], s["K"], s["N"], generator=g) / s["K"] ** 0.5).to(dt)
    return inp.to(device), a.to(device), b.to(device), 0.5, 1.0


def reference(inp, a, b, beta, alpha) -> torch.Tensor:
    return torch.baddbmm(inp.float(), a.float(), b.float(), beta=beta, alpha=alpha).to(inp.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, M, N, K = s["B"], s["M"], s["N"], s["K"]
    return {"bytes": 2 * B * (M * K + K * N + 2 * M * N), "flops": 2 * B * M * N * K}
