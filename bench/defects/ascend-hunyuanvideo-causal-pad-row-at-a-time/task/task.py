"""HunyuanVideo VAE causal 3-D convolution padding (HunyuanVideoCausalConv3d, kernel 3, pad_mode="replicate").

F.pad(x, (1, 1, 1, 1, 2, 0), mode="replicate") on x [B, C, T, H, W]: one replicated column on each side
of W, one replicated row above and below H, and two copies of the first frame in front of T (causal:
nothing after the last frame). Output [B, C, T + 2, H + 2, W + 2], same dtype.
"""
import torch
import torch.nn.functional as F

META = {
    "name": "hunyuanvideo_causal_pad3d",
    "level": 1,
    "category": "data-movement",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 1, "C": 2, "T": 3, "H": 5, "W": 12},
        "ragged": {"B": 2, "C": 3, "T": 4, "H": 9, "W": 37},
        "large": {"B": 1, "C": 128, "T": 65, "H": 256, "W": 256},
    },
    "baseline_notes": "Programs (40, one per AI vector core) loop over output planes (b, c, t_out); each plane is "
                      "moved in blocks of 32 source rows (interior tile store plus the two edge columns), then "
                      "the replicated top and bottom rows.",
    "deterministic": True,
}
PAD = (1, 1, 1, 1, 2, 0)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, C, T, H, W]: a decoder activation entering a CausalConv3d (one spatial tile of a tiled decode)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["B"], s["C"], s["T"], s["H"], s["W"], generator=g)
    return (x.to(dt).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return F.pad(x.float(), PAD, mode="replicate").to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    bc = s["B"] * s["C"]
    n_in = bc * s["T"] * s["H"] * s["W"]
    n_out = bc * (s["T"] + 2) * (s["H"] + 2) * (s["W"] + 2)
    return {"bytes": (n_in + n_out) * item, "flops": 0}
