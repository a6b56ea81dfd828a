"""LoRA expand with residual add: y = base + scale * (t @ B), t = x @ A already shrunk to rank r (punica / vLLM LoRA)."""
import torch

META = {
    "name": "lora_expand",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 3e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 64, "N": 96, "R": 16},
        "ragged": {"M": 1000, "N": 1530, "R": 16},
        "large": {"M": 16384, "N": 4096, "R": 16},
    },
    "baseline_notes": "64x128 output tiles: tl.dot of a [64, R] slice of t with the [R, 128] slice of B, "
                      "fp32 accumulator, scaled and added to the base tile, one store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """base [M, N], t [M, R], lora_b [R, N] (standard normals, B scaled by 1/sqrt(R)), scale float."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    base = torch.randn(s["M"], s["N"], generator=g)
    t = torch.randn(s["M"], s["R"], generator=g)
    b = torch.randn(s["R"], s["N"], generator=g) / s["R"] ** 0.5
    return base.to(device=device, dtype=dt), t.to(device=device, dtype=dt), b.to(device=device, dtype=dt), 0.5


def reference(base: torch.Tensor, t: torch.Tensor, lora_b: torch.Tensor, scale: float) -> torch.Tensor:
    return (base.float() + scale * (t.float() @ lora_b.float())).to(base.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    M, N, R = s["M"], s["N"], s["R"]
    return {"bytes": (2 * M * N + M * R + R * N) * item, "flops": 2 * M * N * R + 2 * M * N}
