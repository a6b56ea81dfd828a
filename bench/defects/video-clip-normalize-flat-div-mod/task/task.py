"""Video clip preprocessing: uint8 decoded frames [B, T, H, W, C] -> normalized float clip [B, C, T, H, W]."""
import torch

META = {
    "name": "video_clip_normalize",
    "level": 1,
    "category": "layout",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 2, "T": 4, "H": 12, "W": 20, "C": 3},
        "ragged": {"B": 1, "T": 3, "H": 11, "W": 37, "C": 3},
        "large": {"B": 4, "T": 32, "H": 360, "W": 640, "C": 3},
    },
    "baseline_notes": "2-D grid (frame row b*T*H + t*H + h, block of 512 pixels): the row's b, t, h are split once per "
                      "program, the three channels are a static loop; 4 warps.",
    "deterministic": True,
}

MEAN = (0.485, 0.456, 0.406)
STD = (0.229, 0.224, 0.225)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """frames uint8 [B, T, H, W, C] as decoded (THWC), per-channel mean and std (ImageNet, as VideoMAE uses)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    frames = torch.randint(0, 256, (s["B"], s["T"], s["H"], s["W"], s["C"]), generator=g, dtype=torch.uint8)
    mean = torch.tensor(MEAN, dtype=torch.float32)
    std = torch.tensor(STD, dtype=torch.float32)
    return frames.to(device), mean.to(device), std.to(device)


def reference(frames: torch.Tensor, mean: torch.Tensor, std: torch.Tensor) -> torch.Tensor:
    x = frames.permute(0, 4, 1, 2, 3).double() / 255.0
    y = (x - mean.double().view(1, -1, 1, 1, 1)) / std.double().view(1, -1, 1, 1, 1)
    return y.float().contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["T"] * s["H"] * s["W"] * s["C"]
    return {"bytes": n * (1 + 4), "flops": 3 * n}
