"""FP8 (e4m3) linear with a per-token activation scale [M, 1] and a per-channel weight scale [N]: out = (x @ W^T) * x_scale * w_scale in bf16, W stored [N, K] (vLLM triton_scaled_mm)."""
import torch

META = {
    "name": "fp8_scaled_mm_per_channel",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 64, "N": 96, "K": 128},
        "ragged": {"M": 1000, "N": 1536, "K": 2048},
        "large": {"M": 8192, "N": 8192, "K": 8192},
    },
    "baseline_notes": "128x128x128 tiles, fp8 x fp8 tl.dot into fp32 with the weight read K-major through "
                      "its strides, both scale vectors applied once in the epilogue, bf16 store; 8 warps, 3 stages.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, K] and weight [N, K] float8_e4m3fn from standard normals; x_scale [M, 1], w_scale [N] fp32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["K"], generator=g).to(torch.float8_e4m3fn)
    w = torch.randn(s["N"], s["K"], generator=g).to(torch.float8_e4m3fn)
    xs = 0.25 + 0.5 * torch.rand(s["M"], 1, generator=g)
    ws = (1.0 + torch.rand(s["N"], generator=g)) / s["K"] ** 0.5
    return x.to(device), w.to(device), xs.to(device), ws.to(device)


def reference(x, weight, x_scale, w_scale) -> torch.Tensor:
    acc = x.double() @ weight.double().t()
    return (acc * x_scale.double() * w_scale.double()[None, :]).to(torch.bfloat16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    M, N, K = s["M"], s["N"], s["K"]
    return {"bytes": M * K + N * K + 2 * M * N + 4 * (M + N), "flops": 2 * M * N * K}
