"""Restormer MDTA (multi-Dconv head transposed attention) channel attention map.

qkv is the output of the block's 1x1 + 3x3 depthwise convs, [B, 3C, H, W]; q, k, v are its three
channel thirds and each head takes c = C/heads consecutive channels. Per (image, head):
q, k = F.normalize(q, dim=-1), F.normalize(k, dim=-1) over the H*W pixels,
attn = softmax((q @ k^T) * temperature[head], dim=-1), a [c, c] map over channels (transposed
attention). Output attn [B, heads, c, c] in fp32 (the block then applies it to v).
"""
import torch

META = {
    "name": "restormer_mdta_attention_map",
    "level": 2,
    "category": "attention",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "C": 32, "heads": 2, "H": 8, "W": 16},
        "ragged": {"B": 1, "C": 48, "heads": 1, "H": 12, "W": 21},
        "large": {"B": 8, "C": 48, "heads": 1, "H": 128, "W": 128},
    },
    "baseline_notes": "One program per (image, head) on a grid of at most 20 (the cube cores): loops over the "
                      "H*W pixels in 128-wide tiles, accumulating q @ k^T for all c rows with tl.dot (fp16 "
                      "operands, fp32 accumulator) and the squared norms of the q and k rows; then scales by "
                      "the norms and the temperature and takes a row softmax of the [c, c] map.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """qkv [B, 3C, H, W] (conv outputs), temperature [heads] fp32 (learned, around 1)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    qkv = torch.randn(s["B"], 3 * s["C"], s["H"], s["W"], generator=g)
    qkv[:, : 2 * s["C"]] += torch.randn(s["B"], 2 * s["C"], 1, 1, generator=g) * 0.5
    temperature = 1.0 + 2.0 * torch.rand(s["heads"], generator=g)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return qkv.to(device=device, dtype=dt), temperature.to(device)


def reference(qkv: torch.Tensor, temperature: torch.Tensor) -> torch.Tensor:
    B, C3, H, W = qkv.shape
    heads = temperature.numel()
    C = C3 // 3
    q, k, _ = qkv.double().chunk(3, dim=1)
    q = torch.nn.functional.normalize(q.reshape(B, heads, C // heads, H * W), dim=-1)
    k = torch.nn.functional.normalize(k.reshape(B, heads, C // heads, H * W), dim=-1)
    attn = (q @ k.transpose(-2, -1)) * temperature.double().view(1, heads, 1, 1)
    return attn.softmax(dim=-1).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    c = s["C"] // s["heads"]
    hw = s["H"] * s["W"]
    return {"bytes": 2 * s["B"] * s["C"] * hw * item + 4 * s["B"] * s["heads"] * c * c,
            "flops": 2 * s["B"] * s["heads"] * c * c * hw + 4 * s["B"] * s["C"] * hw}
