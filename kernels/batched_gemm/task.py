"""Batched GEMM C[b] = A[b] @ B[b] in float16 with fp32 accumulation (torch.bmm)."""
import torch

META = {
    "name": "batched_gemm",
    "level": 1,
    "category": "gemm",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 3, "M": 64, "N": 48, "K": 40},
        "ragged": {"B": 7, "M": 500, "N": 333, "K": 129},
        "large": {"B": 32, "M": 1024, "N": 1024, "K": 1024},
    },
    "baseline_notes": "The tiled 64x64x32 tl.dot GEMM with the batch as the third grid axis, "
                      "fp32 accumulator, masked edges; no grouping, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A [B, M, K] and B [B, K, N], standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    a = torch.randn(s["B"], s["M"], s["K"], generator=g)
    b = torch.randn(s["B"], s["K"], s["N"], generator=g)
    return a.to(device=device, dtype=dt), b.to(device=device, dtype=dt)


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.bmm(a, b)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    B, M, N, K = s["B"], s["M"], s["N"], s["K"]
    return {"bytes": B * (M * K + K * N + M * N) * item, "flops": 2 * B * M * N * K}
