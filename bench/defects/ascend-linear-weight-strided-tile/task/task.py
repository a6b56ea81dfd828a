"""Linear layer without bias, y = x @ W^T with the weight stored [N, K] as nn.Linear keeps it,
in float16 with fp32 accumulation. A local task for the strided-tile defect case."""
import torch

META = {
    "name": "linear_nt",
    "level": 1,
    "category": "gemm",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 2e-2}, "bfloat16": {"atol": 5e-2, "rtol": 3e-2}},
    "sizes": {
        "small": {"M": 64, "N": 96, "K": 128},
        "ragged": {"M": 1000, "N": 1000, "K": 1000},
        "large": {"M": 4096, "N": 4096, "K": 4096},
    },
    "baseline_notes": "Tiled tl.dot GEMM with 128x128x64 tiles: x tiles [BM, BK] and weight tiles "
                      "[BN, BK] loaded row-major, the weight tile transposed on chip for the dot; "
                      "fp32 accumulator; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, K] and weight [N, K], scaled so outputs stay O(1)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["M"], s["K"], generator=g)
    w = torch.randn(s["N"], s["K"], generator=g) / s["K"] ** 0.5
    return x.to(device=device, dtype=dt), w.to(device=device, dtype=dt)


def reference(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return (x.float() @ w.float().t()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (s["M"] * s["K"] + s["N"] * s["K"] + s["M"] * s["N"]) * item,
            "flops": 2 * s["M"] * s["N"] * s["K"]}
