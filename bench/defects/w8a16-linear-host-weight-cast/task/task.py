"""Weight-only int8 linear (torchao int8_weight_only / W8A16): y = (x @ W_int8^T) * scale, W_int8 [N, K] with one
scale per output channel, bf16 activations, decode batch."""
import torch

META = {
    "name": "w8a16_linear",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 5, "K": 96, "N": 80},
        "ragged": {"M": 13, "K": 200, "N": 333},
        "large": {"M": 16, "K": 4096, "N": 28672},
    },
    "baseline_notes": "Grid (cdiv(M, 16), cdiv(N, 64)); int8 [64, 128] weight tiles loaded and converted to bf16 in "
                      "registers, bf16 tl.dot into an fp32 accumulator, per-channel scale in the epilogue; 4 warps, "
                      "3 stages.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, K] activations, w_int8 [N, K] (nn.Linear layout), scale [N] (symmetric per-channel, absmax / 127)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["M"], s["K"], generator=g)
    w = torch.randn(s["N"], s["K"], generator=g) * 0.02
    scale = w.abs().amax(dim=1) / 127.0
    w_int8 = torch.round(w / scale[:, None]).clamp(-127, 127).to(torch.int8)
    return x.to(device=device, dtype=dt), w_int8.to(device), scale.to(device=device, dtype=dt)


def reference(x: torch.Tensor, w_int8: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    return ((x.double() @ w_int8.double().t()) * scale.double()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = torch.tensor([], dtype=getattr(torch, dtype or META["dtypes"][0])).element_size()
    return {"bytes": s["N"] * s["K"] + (s["M"] * s["K"] + s["M"] * s["N"] + s["N"]) * item,
            "flops": 2 * s["M"] * s["N"] * s["K"]}
