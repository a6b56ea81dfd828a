"""PWC-Net backward warping of the frame-2 features by the upsampled flow (PWCDCNet.warp).

PWC-Net (Sun et al., CVPR 2018; NVlabs/PWC-Net PyTorch) warps the second frame's pyramid features
towards the first frame before every cost volume:
    vgrid = (x + u, y + v);  out = grid_sample(feat, vgrid, align_corners=True)   (bilinear, zeros)
    mask  = grid_sample(ones, vgrid);  mask = 1 where mask >= 0.9999 else 0;  return out * mask
i.e. a pixel whose bilinear footprint leaves the image (in-bounds corner weights summing below 0.9999)
is zeroed in every channel. At level 2 the features are c22 (32 channels, 1/4 resolution) and the
flow is up_flow3 * 5.0. Inputs: feat [B, C, H, W] fp32, flow [B, 2, H, W] fp32 (u then v, pixels).
"""
import torch
import torch.nn.functional as F

META = {
    "name": "pwcnet_backward_warp",
    "level": 2,
    "category": "sampling",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"B": 2, "C": 8, "H": 6, "W": 10},
        "ragged": {"B": 1, "C": 5, "H": 7, "W": 13},
        "large": {"B": 8, "C": 32, "H": 112, "W": 256},
    },
    "baseline_notes": "Grid (row segments of 64 pixels, rows, batch): per pixel the sample position, the four "
                      "bilinear weights and the 0.9999 footprint mask are computed once, then all channels are "
                      "gathered as one [C, 64] tile (pixels along the lanes) and stored row-contiguously; "
                      "4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Features [B, C, H, W] and a smooth flow [B, 2, H, W] of a few pixels (some samples leave the image)."""
    s = META["sizes"][size]
    B, C, H, W = s["B"], s["C"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    feat = torch.randn(B, C, H, W, generator=g)
    coarse = torch.randn(B, 2, 3, 4, generator=g) * 4.0
    flow = F.interpolate(coarse, size=(H, W), mode="bilinear", align_corners=True)
    flow = flow + 0.5 * torch.randn(B, 2, H, W, generator=g)
    return feat.to(device=device, dtype=dt), flow.to(device=device, dtype=dt)


def reference(feat: torch.Tensor, flow: torch.Tensor) -> torch.Tensor:
    B, C, H, W = feat.shape
    xx = torch.arange(W, device=feat.device, dtype=flow.dtype).view(1, 1, W).expand(B, H, W)
    yy = torch.arange(H, device=feat.device, dtype=flow.dtype).view(1, H, 1).expand(B, H, W)
    sx = (xx + flow[:, 0]).double()          # vgrid = grid + flo, formed in the flow's precision as PWC-Net does
    sy = (yy + flow[:, 1]).double()
    vgrid = torch.stack((2.0 * sx / max(W - 1, 1) - 1.0, 2.0 * sy / max(H - 1, 1) - 1.0), dim=-1)
    out = F.grid_sample(feat.double(), vgrid, mode="bilinear", padding_mode="zeros", align_corners=True)
    ones = torch.ones(B, 1, H, W, dtype=torch.float64, device=feat.device)
    mask = F.grid_sample(ones, vgrid, mode="bilinear", padding_mode="zeros", align_corners=True)
    mask = (mask >= 0.9999).double()
    return (out * mask).to(feat.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, C, HW = s["B"], s["C"], s["H"] * s["W"]
    return {"bytes": 4 * (2 * B * C * HW + 2 * B * HW), "flops": 8 * B * C * HW}
