"""nn.Linear forward without bias, y = x @ W^T with W stored [out_features, in_features] (decode-size batch)."""
import torch

META = {
    "name": "linear",
    "level": 1,
    "category": "gemm",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 5e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 64, "N": 96, "K": 80},
        "ragged": {"M": 300, "N": 1000, "K": 1500},
        "large": {"M": 512, "N": 8192, "K": 8192},
    },
    "baseline_notes": "128x128x64 tl.dot tiles reading W through its strides as the [K, N] operand "
                      "(no copy), fp32 accumulator, 8 warps, 3 stages; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, K] standard normals, weight [N, K] scaled by 1/sqrt(K)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["M"], s["K"], generator=g)
    w = torch.randn(s["N"], s["K"], generator=g) / s["K"] ** 0.5
    return x.to(device=device, dtype=dt), w.to(device=device, dtype=dt)


def reference(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return (x.float() @ weight.float().t()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    M, N, K = s["M"], s["N"], s["K"]
    return {"bytes": (M * K + N * K + M * N) * item, "flops": 2 * M * N * K}
