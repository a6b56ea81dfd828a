"""Rotary embedding (rotate_half / neox form) on attention-layout q [B, H, S, D] and k [B, KVH, S, D] (unsloth fast_rope_embedding)."""
import torch

META = {
    "name": "rope_bhsd",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 1, "H": 4, "KVH": 2, "S": 40, "D": 64},
        "ragged": {"B": 2, "H": 6, "KVH": 2, "S": 333, "D": 128},
        "large": {"B": 8, "H": 32, "KVH": 8, "S": 4096, "D": 128},
    },
    "baseline_notes": "Grid (batch * head, 64-token block) on the [B, H, S, D] tensors as given: a [64, D/2] tile "
                      "of each half, cos/sin [64, D/2] per block; one launch for q, one for k; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k of normals; cos, sin [S, D/2] fp32 for positions 0..S-1, rope_theta 500000 (Llama-3)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q = torch.randn(s["B"], s["H"], s["S"], s["D"], generator=g).to(dt)
    k = torch.randn(s["B"], s["KVH"], s["S"], s["D"], generator=g).to(dt)
    inv_freq = 1.0 / (500000.0 ** (torch.arange(0, s["D"], 2, dtype=torch.float32) / s["D"]))
    freqs = torch.arange(s["S"], dtype=torch.float32)[:, None] * inv_freq[None, :]
    return q.to(device), k.to(device), freqs.cos().to(device), freqs.sin().to(device)


def _rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half].float(), x[..., half:].float()
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1).to(x.dtype)


def reference(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> tuple:
    return _rope(q, cos, sin), _rope(k, cos, sin)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * (s["H"] + s["KVH"]) * s["S"] * s["D"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 3 * n}
