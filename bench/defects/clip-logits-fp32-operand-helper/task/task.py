"""CLIP contrastive logits: logits_per_image = logit_scale * image_features @ text_features.T (fp32 result)."""
import torch

META = {
    "name": "clip_logits",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 50, "D": 64},
        "ragged": {"N": 1001, "D": 512},
        "large": {"N": 8192, "D": 1024},
    },
    "baseline_notes": "Tiled tl.dot GEMM on the bf16 tiles (fp32 accumulator), 128x128x64 tiles, GROUP_M 8, "
                      "8 warps, 3 stages; logit_scale applied in the epilogue, fp32 store.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """image_features [N, D], text_features [N, D] (L2-normalised embeddings), logit_scale (exp of the learned temperature)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    img = torch.nn.functional.normalize(torch.randn(s["N"], s["D"], generator=g), dim=-1)
    txt = torch.nn.functional.normalize(torch.randn(s["N"], s["D"], generator=g) + 0.5 * img, dim=-1)
    return img.to(dt).to(device), txt.to(dt).to(device), 100.0


def reference(image_features: torch.Tensor, text_features: torch.Tensor, logit_scale: float) -> torch.Tensor:
    return logit_scale * (image_features.float() @ text_features.float().T)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * item * s["N"] * s["D"] + 4 * s["N"] * s["N"], "flops": 2 * s["N"] * s["N"] * s["D"]}
