"""PWC-Net local cost volume (FlowNet2 Correlation layer as PWCDCNet calls it, followed by LeakyReLU(0.1)).

For every pixel of frame 1 and every displacement (dy, dx) in [-md, md]^2 (md = 4, 81 displacements):
    cost[b, (dy+md)*(2md+1) + (dx+md), y, x] = leaky_relu( mean_c f1[b,c,y,x] * f2[b,c,y+dy,x+dx], 0.1 )
with f2 = 0 outside the image (pad_size = md, kernel_size = 1, stride1 = stride2 = 1; the layer divides
by kernel_size^2 * C). At level 2 f1 is c12 and f2 the warped c22 (32 channels, 1/4 resolution).
Inputs: f1, f2 [B, C, H, W] fp32; output [B, 81, H, W] fp32.
"""
import torch
import torch.nn.functional as F

MD = 4

META = {
    "name": "pwcnet_cost_volume",
    "level": 2,
    "category": "correlation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 1, "C": 8, "H": 4, "W": 9},
        "ragged": {"B": 1, "C": 5, "H": 7, "W": 13},
        "large": {"B": 8, "C": 32, "H": 112, "W": 256},
    },
    "baseline_notes": "Grid (row segments of 128 pixels, rows, batch): the f1 tile [C, 128] is loaded once and "
                      "the program loops over the 81 displacements, loading the shifted f2 tile (zero outside), "
                      "reducing over channels, scaling by 1/C, LeakyReLU(0.1) and storing the row of that "
                      "displacement; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """f1, f2 [B, C, H, W]: frame-2 features are frame-1 features moved by a couple of pixels plus noise."""
    s = META["sizes"][size]
    B, C, H, W = s["B"], s["C"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f1 = torch.randn(B, C, H, W, generator=g)
    f2 = 0.7 * torch.roll(f1, shifts=(-1, 2), dims=(2, 3)) + 0.7 * torch.randn(B, C, H, W, generator=g)
    return f1.to(device=device, dtype=dt), f2.to(device=device, dtype=dt)


def reference(f1: torch.Tensor, f2: torch.Tensor) -> torch.Tensor:
    B, C, H, W = f1.shape
    a = f1.double()
    p = F.pad(f2.double(), (MD, MD, MD, MD))
    planes = [(a * p[:, :, dy:dy + H, dx:dx + W]).mean(1)
              for dy in range(2 * MD + 1) for dx in range(2 * MD + 1)]
    cost = torch.stack(planes, dim=1)
    return F.leaky_relu(cost, 0.1).to(f1.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, C, HW = s["B"], s["C"], s["H"] * s["W"]
    nd = (2 * MD + 1) ** 2
    return {"bytes": 4 * (2 * B * C * HW + B * nd * HW), "flops": 2 * B * nd * C * HW}
