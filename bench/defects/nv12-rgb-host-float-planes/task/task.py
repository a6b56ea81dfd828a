"""NV12 (NVDEC output) to planar RGB in [0, 1], BT.709 limited range, for a video model's input frames."""
import torch

META = {
    "name": "nv12_to_rgb_bt709",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"T": 2, "H": 32, "W": 48},
        "ragged": {"T": 3, "H": 34, "W": 62},
        "large": {"T": 16, "H": 1080, "W": 1920},
    },
    "baseline_notes": "2-D grid (frame, block of 1,024 pixels); each program loads its uint8 luma and the interleaved "
                      "uint8 chroma pair of its 2x2 block, converts in fp32 and stores fp16 R, G, B planes.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """luma [T, H, W] uint8 and interleaved chroma [T, H/2, W] uint8 (U, V pairs), as NVDEC writes NV12 surfaces.
    The output dtype is META's float16; the planes are always uint8."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(16, 236, (s["T"], s["H"], s["W"]), generator=g, dtype=torch.uint8)
    uv = torch.randint(16, 241, (s["T"], s["H"] // 2, s["W"]), generator=g, dtype=torch.uint8)
    return y.to(device), uv.to(device)


def reference(y: torch.Tensor, uv: torch.Tensor) -> torch.Tensor:
    yf = (y.double() - 16.0) / 219.0
    u = (uv[..., 0::2].double() - 128.0) / 224.0
    v = (uv[..., 1::2].double() - 128.0) / 224.0
    u = u.repeat_interleave(2, dim=1).repeat_interleave(2, dim=2)
    v = v.repeat_interleave(2, dim=1).repeat_interleave(2, dim=2)
    r = yf + 1.5748 * v
    gg = yf - 0.1873 * u - 0.4681 * v
    b = yf + 1.8556 * u
    return torch.stack([r, gg, b], dim=1).clamp(0, 1).to(torch.float16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    px = s["T"] * s["H"] * s["W"]
    return {"bytes": px * 3 // 2 + 6 * px, "flops": 14 * px}
