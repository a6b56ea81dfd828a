"""Backward warp of frames by optical flow (RIFE IFNet warp: grid_sample bilinear, border padding, align_corners)."""
import torch
import torch.nn.functional as F

META = {
    "name": "flow_backwarp",
    "level": 1,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 2, "C": 3, "H": 16, "W": 24},
        "ragged": {"N": 1, "C": 3, "H": 13, "W": 29},
        "large": {"N": 8, "C": 3, "H": 1088, "W": 1920},
    },
    "baseline_notes": "one program per (frame, row, block of 512 pixels): reads the two flow planes directly, "
                      "sampling position = pixel + flow clamped to the border, bilinear over the channels.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """img [N, C, H, W] and flow [N, 2, H, W] in pixels (x, y)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    img = torch.rand(s["N"], s["C"], s["H"], s["W"], generator=g)
    flow = torch.randn(s["N"], 2, s["H"], s["W"], generator=g) * 6.0
    return img.to(dt).to(device), flow.to(dt).to(device)


def reference(img: torch.Tensor, flow: torch.Tensor) -> torch.Tensor:
    N, _, H, W = img.shape
    hor = torch.linspace(-1.0, 1.0, W, dtype=torch.float64, device=img.device).view(1, 1, 1, W).expand(N, -1, H, -1)
    ver = torch.linspace(-1.0, 1.0, H, dtype=torch.float64, device=img.device).view(1, 1, H, 1).expand(N, -1, -1, W)
    f = flow.double()
    f = torch.cat([f[:, 0:1] / ((W - 1.0) / 2.0), f[:, 1:2] / ((H - 1.0) / 2.0)], 1)
    grid = (torch.cat([hor, ver], 1) + f).permute(0, 2, 3, 1)
    out = F.grid_sample(img.double(), grid, mode="bilinear", padding_mode="border", align_corners=True)
    return out.to(img.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    px = s["N"] * s["H"] * s["W"]
    return {"bytes": 4 * px * (2 + 2 * s["C"]), "flops": 10 * px * s["C"]}
