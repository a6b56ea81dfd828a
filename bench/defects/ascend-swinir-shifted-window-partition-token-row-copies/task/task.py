"""SwinIR shifted-window partition (SwinTransformerBlock: torch.roll(x, (-s, -s), (1, 2)) then window_partition).

x is the block's token tensor viewed as [B, H, W, C] (channels last, H and W already padded to a
multiple of the window). The output is the stack of ws x ws windows of the cyclically shifted
image, [B * (H/ws) * (W/ws), ws * ws, C], in the order window_partition produces (image, window
row, window column, row in window, column in window).
"""
import torch

WINDOW = 8
SHIFT = WINDOW // 2

META = {
    "name": "swinir_shifted_window_partition",
    "level": 1,
    "category": "layout",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 0.0},
                  "bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 2, "H": 16, "W": 16, "C": 24},
        "ragged": {"B": 1, "H": 24, "W": 40, "C": 60},
        "large": {"B": 1, "H": 512, "W": 512, "C": 240},
    },
    "baseline_notes": "Grid of 40 programs (the vector cores), each looping over image rows of the shifted "
                      "image: per row, chunks of 8 windows are copied as one [8, ws*C] tile (each window's "
                      "ws tokens are contiguous in source and destination); the last window, whose columns "
                      "wrap around, is copied as two contiguous pieces.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, H, W, C] of standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["B"], s["H"], s["W"], s["C"], generator=g)
    return (x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(x: torch.Tensor) -> torch.Tensor:
    B, H, W, C = x.shape
    ws = WINDOW
    shifted = torch.roll(x, shifts=(-SHIFT, -SHIFT), dims=(1, 2))
    win = shifted.view(B, H // ws, ws, W // ws, ws, C).permute(0, 1, 3, 2, 4, 5)
    return win.reshape(-1, ws * ws, C).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["B"] * s["H"] * s["W"] * s["C"] * item, "flops": 0}
