"""Linear layer with bias and tanh-approximate GELU (kernl linear_layer, activation="fast_gelu"): y = gelu_tanh(x @ W^T + b)."""
import torch

META = {
    "name": "linear_fast_gelu",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 3e-2}, "float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 48, "K": 64, "N": 80},
        "ragged": {"M": 1000, "K": 1000, "N": 1500},
        "large": {"M": 8192, "K": 1024, "N": 4096},
    },
    "baseline_notes": "64 x 64 output tiles, a 32-wide K loop of bf16 tl.dot into an fp32 accumulator, bias and "
                      "gelu_tanh in the epilogue; num_stages=3, 4 warps; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, K], W [N, K] (nn.Linear layout) and b [N] in the activation dtype, scaled like a BERT-large FFN."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["M"], s["K"], generator=g)
    w = torch.randn(s["N"], s["K"], generator=g) / s["K"] ** 0.5
    b = 0.1 * torch.randn(s["N"], generator=g)
    return x.to(dt).to(device), w.to(dt).to(device), b.to(dt).to(device)


def reference(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    y = x.float() @ w.float().t() + b.float()
    return torch.nn.functional.gelu(y, approximate="tanh").to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (s["M"] * s["K"] + s["N"] * s["K"] + s["N"] + s["M"] * s["N"]) * item,
            "flops": 2 * s["M"] * s["N"] * s["K"]}
