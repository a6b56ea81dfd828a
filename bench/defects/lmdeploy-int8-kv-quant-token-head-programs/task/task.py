"""Int8 KV-cache quantisation on the cache-fill path: each (token, kv head) row of K and V is quantised
asymmetrically to uint8 over head_dim, with its fp32 scale and zero point stored beside it."""
import torch

META = {
    "name": "kv_cache_int8_quant",
    "level": 2,
    "category": "quantization",
    "dtypes": ["bfloat16"],
    # uint8 codes may differ by one where x / scale + zero lands on a rounding boundary
    "tolerance": {"bfloat16": {"atol": 1.0, "rtol": 1e-3}},
    "sizes": {
        "small": {"T": 37, "H": 2, "D": 128},
        "ragged": {"T": 301, "H": 3, "D": 64},
        "large": {"T": 16384, "H": 8, "D": 128},
    },
    "baseline_notes": "Grid (16-token block, kv head): each program quantises a [16, head_dim] tile of K and of V "
                      "with row-wise min / max, writes the uint8 codes and the [16, 2] scale / zero pairs; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """k [T, H, D], v [T, H, D] (the new prefill tokens' keys and values after rotary)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    k = torch.randn(s["T"], s["H"], s["D"], generator=g) * 2.0
    v = torch.randn(s["T"], s["H"], s["D"], generator=g) * 0.5
    return k.to(dt).to(device), v.to(dt).to(device)


def _quant(x: torch.Tensor) -> tuple:
    x = x.float()
    mn = x.amin(dim=-1, keepdim=True)
    mx = x.amax(dim=-1, keepdim=True)
    scale = (mx - mn) / 255.0
    zero = -mn / scale
    q = torch.floor(x / scale + zero + 0.5).clamp(0, 255).to(torch.uint8)
    return q, torch.cat([scale, zero], dim=-1)


def reference(k: torch.Tensor, v: torch.Tensor) -> tuple:
    kq, ksz = _quant(k)
    vq, vsz = _quant(v)
    return kq, vq, ksz, vsz


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["H"] * s["D"]
    rows = s["T"] * s["H"]
    return {"bytes": 2 * (2 * n + n + 8 * rows), "flops": 2 * 6 * n}
