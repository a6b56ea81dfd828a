"""GPT-2 MLP up-projection: gelu_tanh(x @ W + b) in float16 (nn.Linear followed by GELU(approximate='tanh'))."""
import torch

META = {
    "name": "gemm_bias_gelu",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 128, "N": 96, "K": 80},
        "ragged": {"M": 1000, "N": 1531, "K": 777},
        "large": {"M": 4096, "N": 16384, "K": 4096},
    },
    "baseline_notes": "Tiled tl.dot GEMM with fixed 64x64x32 tiles and an fp32 accumulator; the "
                      "epilogue adds the bias and applies tanh-GELU (tanh written as "
                      "2*sigmoid(2x)-1) before one store; no grouping, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Activations x [M, K], weight W [K, N] scaled by 1/sqrt(K), bias b [N]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["M"], s["K"], generator=g)
    w = torch.randn(s["K"], s["N"], generator=g) / s["K"] ** 0.5
    b = 0.1 * torch.randn(s["N"], generator=g)
    return tuple(t.to(device=device, dtype=dt) for t in (x, w, b))


def reference(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # The natural torch code: matmul in the input dtype (fp32 accumulation), then the epilogue.
    return torch.nn.functional.gelu(x @ w + b, approximate="tanh")


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    M, N, K = s["M"], s["N"], s["K"]
    return {"bytes": (M * K + K * N + N + M * N) * item, "flops": 2 * M * N * K + 10 * M * N}
