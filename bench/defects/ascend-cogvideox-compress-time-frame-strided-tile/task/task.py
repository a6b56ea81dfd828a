"""CogVideoX VAE temporal compression (diffusers CogVideoXDownsample3D, compress_time=True).

x [B, C, T, H, W]: with T odd the first frame is kept and the remaining frames are averaged in
pairs (avg_pool1d, kernel 2, stride 2, along time); with T even all frames are averaged in pairs.
Output [B, C, T // 2 + T % 2, H, W], same dtype (the average is taken in fp32).
"""
import torch

META = {
    "name": "cogvideox_compress_time",
    "level": 1,
    "category": "pooling",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 1, "C": 3, "T": 5, "H": 6, "W": 10},
        "ragged": {"B": 2, "C": 5, "T": 8, "H": 7, "W": 13},
        "large": {"B": 1, "C": 128, "T": 9, "H": 480, "W": 720},
    },
    "baseline_notes": "Programs (40, one per AI vector core) loop over (b*c, pixel block) items; each item walks "
                      "the output frames and averages two contiguous frame planes of 4,096 pixels in fp32.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, C, T, H, W]: the encoder feature map entering the first down block's downsampler."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["B"], s["C"], s["T"], s["H"], s["W"], generator=g)
    return (x.to(dt).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    xf = x.float()
    if x.shape[2] % 2 == 1:
        rest = xf[:, :, 1:]
        pooled = (rest[:, :, 0::2] + rest[:, :, 1::2]) * 0.5
        out = torch.cat([xf[:, :, :1], pooled], dim=2)
    else:
        out = (xf[:, :, 0::2] + xf[:, :, 1::2]) * 0.5
    return out.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    plane = s["B"] * s["C"] * s["H"] * s["W"]
    t_out = s["T"] // 2 + s["T"] % 2
    return {"bytes": plane * (s["T"] + t_out) * item, "flops": 2 * plane * t_out}
