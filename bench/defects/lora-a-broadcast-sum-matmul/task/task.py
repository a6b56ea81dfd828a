"""LoRA shrink: t = scale * (x @ A) with A [K, R], the first half of a LoRA adapter (punica / vLLM LoRA), rank R."""
import torch

META = {
    "name": "lora_shrink",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 3e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 64, "K": 256, "R": 16},
        "ragged": {"M": 1000, "K": 3000, "R": 16},
        "large": {"M": 16384, "K": 4096, "R": 16},
    },
    "baseline_notes": "64-token tiles: tl.dot of [64, 128] slices of x with [128, R] slices of A over the K "
                      "loop into an fp32 [64, R] accumulator, scaled, one store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, K] standard normals, lora_a [K, R] scaled by 1/sqrt(K), scale float."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["M"], s["K"], generator=g)
    a = torch.randn(s["K"], s["R"], generator=g) / s["K"] ** 0.5
    return x.to(device=device, dtype=dt), a.to(device=device, dtype=dt), 2.0


def reference(x: torch.Tensor, lora_a: torch.Tensor, scale: float) -> torch.Tensor:
    return (scale * (x.float() @ lora_a.float())).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    M, K, R = s["M"], s["K"], s["R"]
    return {"bytes": (M * K + K * R + M * R) * item, "flops": 2 * M * K * R}
