"""DoRA magnitude normalisation (PEFT DoraLinearLayer.get_weight_norm): per output feature, the L2 norm of
W + scaling * (B @ A) over the input features, and the scale magnitude / norm that DoRA applies to the
adapted layer's output.

W [OUT, IN] bf16 (the frozen base weight), lora_A [R, IN] bf16, lora_B [OUT, R] bf16, magnitude [OUT] fp32,
scaling = lora_alpha / r (a float). Output: mag_norm_scale [OUT] fp32.
"""
import torch

META = {
    "name": "dora_weight_norm_scale",
    "level": 2,
    "category": "norm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"OUT": 64, "IN": 256, "R": 16},
        "ragged": {"OUT": 100, "IN": 300, "R": 16},
        "large": {"OUT": 14336, "IN": 4096, "R": 32},
    },
    "baseline_notes": "Mixed cube/vector kernel, 20 programs (one per AI core) looping over 64-row blocks of W: "
                      "the B rows of the block are loaded once, then for each 256-column chunk tl.dot(B_blk, A_chunk) "
                      "gives the low-rank delta, W + scaling * delta is squared and row-summed in fp32; "
                      "magnitude / sqrt(sum) stored per row; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """W [OUT, IN], lora_A [R, IN], lora_B [OUT, R] in dtype; magnitude [OUT] fp32; scaling = alpha / r with alpha = 2r."""
    s = META["sizes"][size]
    OUT, IN, R = s["OUT"], s["IN"], s["R"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    w = torch.randn(OUT, IN, generator=g) * (1.0 / IN ** 0.5)
    a = torch.randn(R, IN, generator=g) * (1.0 / IN ** 0.5)
    b = torch.randn(OUT, R, generator=g) * 0.02
    # DoRA initialises the magnitude to the base weight's row norms; a trained adapter has moved it
    mag = w.norm(dim=1) * (1.0 + 0.05 * torch.randn(OUT, generator=g))
    return w.to(device=device, dtype=dt), a.to(device=device, dtype=dt), b.to(device=device, dtype=dt), \
        mag.to(device=device, dtype=torch.float32), 2.0


def reference(w: torch.Tensor, lora_a: torch.Tensor, lora_b: torch.Tensor, magnitude: torch.Tensor,
              scaling: float) -> torch.Tensor:
    weight = w.double() + scaling * (lora_b.double() @ lora_a.double())
    return (magnitude.double() / torch.linalg.norm(weight, dim=1)).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    OUT, IN, R = s["OUT"], s["IN"], s["R"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": item * (OUT * IN + R * IN + OUT * R) + 8 * OUT,
            "flops": 2 * OUT * IN * R + 4 * OUT * IN}
