"""Dense GEMM C = A @ B in bfloat16 with fp32 accumulation (torch.matmul), row-major A [M, K], B [K, N]."""
import torch

META = {
    "name": "gemm_bf16",
    "level": 1,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 128, "N": 96, "K": 80},
        "ragged": {"M": 1000, "N": 1531, "K": 777},
        "large": {"M": 4096, "N": 4096, "K": 4096},
    },
    "baseline_notes": "Simple tiled tl.dot GEMM: 2-D grid of fixed 64x64 output tiles, BLOCK_K=32, "
                      "fp32 accumulator, masked loads on every edge, row-major grid order (no "
                      "grouping), default num_warps/num_stages; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A [M, K] and B [K, N], standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    a = torch.randn(s["M"], s["K"], generator=g)
    b = torch.randn(s["K"], s["N"], generator=g)
    return a.to(device=device, dtype=dt), b.to(device=device, dtype=dt)


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # torch multiplies half/bf16 inputs with fp32 accumulation, like the Triton kernel.
    return a @ b


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    M, N, K = s["M"], s["N"], s["K"]
    return {"bytes": (M * K + K * N + M * N) * item, "flops": 2 * M * N * K}
