"""TeaCache skip criterion for HunyuanVideo (TeaCache4HunyuanVideo): the relative L1 distance between this step's
modulated input of the first double-stream block and the previous step's,
mean(|cur - prev|) / mean(|prev|) per sample, over all image tokens and channels. Output fp32 [B]."""
import torch

META = {
    "name": "teacache_rel_l1",
    "level": 2,
    "category": "reduction",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "L": 40, "D": 96},
        "ragged": {"B": 1, "L": 333, "D": 160},
        "large": {"B": 1, "L": 118800, "D": 3072},
    },
    "baseline_notes": "Two kernels. Partial sums: grid (B, P) with P = vector cores / B, each program reduces one "
                      "contiguous span of its sample in 4096-element blocks into sum|cur - prev| and sum|prev| (fp32); "
                      "finish: one program per sample adds its P partial pairs and divides.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """cur and prev [B, L, D]: modulate(img_norm1(img), shift, scale) of two consecutive denoising steps."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["L"], s["D"])
    scale = 1.0 + 0.5 * torch.rand(s["B"], 1, s["D"], generator=g)
    prev = torch.randn(shape, generator=g) * scale
    cur = prev + 0.08 * torch.randn(shape, generator=g) * scale
    return cur.to(dt).to(device), prev.to(dt).to(device)


def reference(cur: torch.Tensor, prev: torch.Tensor) -> torch.Tensor:
    c = cur.double().flatten(1)
    p = prev.double().flatten(1)
    return ((c - p).abs().mean(dim=1) / p.abs().mean(dim=1)).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["L"] * s["D"]
    return {"bytes": 2 * 2 * n + 4 * s["B"], "flops": 4 * n}
