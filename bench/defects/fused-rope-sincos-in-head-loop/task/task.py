"""Rotary position embedding on [S, B, H, D] (sbhd) activations with the rotation angles given per position,
as Megatron-LM calls TransformerEngine's fused_apply_rotary_pos_emb (freqs [S, 1, 1, D] = cat(pos * inv_freq, pos * inv_freq),
rotate_half style, math in fp32, output in the input dtype)."""
import torch

META = {
    "name": "fused_rope_sbhd",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"S": 48, "B": 2, "H": 4, "D": 64},
        "ragged": {"S": 37, "B": 3, "H": 12, "D": 128},
        "large": {"S": 4096, "B": 2, "H": 32, "D": 128},
    },
    "baseline_notes": "Grid (S, B); each program loads its position's angles once, takes cos/sin of both halves once, "
                      "then walks the heads 8 at a time ([8, D/2] tiles of each half) applying the rotation in fp32; "
                      "4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """t [S, B, H, D] (query activations, sbhd) and freqs [S, 1, 1, D] fp32 angles (RotaryEmbedding(D, base 10000))."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.randn(s["S"], s["B"], s["H"], s["D"], generator=g)
    inv_freq = 1.0 / (10000.0 ** (torch.arange(0, s["D"], 2, dtype=torch.float32) / s["D"]))
    angles = torch.outer(torch.arange(s["S"], dtype=torch.float32), inv_freq)
    freqs = torch.cat([angles, angles], dim=-1)[:, None, None, :].contiguous()
    return t.to(device=device, dtype=dt), freqs.to(device)


def reference(t: torch.Tensor, freqs: torch.Tensor) -> torch.Tensor:
    x = t.float()
    half = x.shape[-1] // 2
    rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
    return (x * freqs.cos() + rotated * freqs.sin()).to(t.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["S"] * s["B"] * s["H"] * s["D"]
    item = torch.tensor([], dtype=getattr(torch, dtype or META["dtypes"][0])).element_size()
    return {"bytes": 2 * n * item + 4 * s["S"] * s["D"], "flops": 3 * n}
