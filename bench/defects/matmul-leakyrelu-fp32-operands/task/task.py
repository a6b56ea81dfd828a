"""Matmul with a fused LeakyReLU epilogue (leaky_relu(a @ b, 0.01)), fp16 operands, fp32 accumulation, fp16 result."""
import torch

META = {
    "name": "matmul_leakyrelu",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 1e-2}, "bfloat16": {"atol": 6e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 64, "N": 96, "K": 80},
        "ragged": {"M": 1001, "N": 1003, "K": 999},
        "large": {"M": 4096, "N": 4096, "K": 4096},
    },
    "baseline_notes": "Triton tutorial 03 matmul: 128 x 128 x 64 tiles from a one-entry autotune config list, 3 stages, 8 warps, grouped program "
                      "order, fp16 tl.dot into an fp32 accumulator, LeakyReLU in the epilogue.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """a [M, K], b [K, N] (scaled so outputs are O(1))."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    a = torch.randn(s["M"], s["K"], generator=g) / s["K"] ** 0.25
    b = torch.randn(s["K"], s["N"], generator=g) / s["K"] ** 0.25
    return a.to(dt).to(device), b.to(dt).to(device)


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.leaky_relu(a.float() @ b.float(), 0.01).to(a.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    it = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (s["M"] * s["K"] + s["K"] * s["N"] + s["M"] * s["N"]) * it, "flops": 2 * s["M"] * s["N"] * s["K"]}
