"""ResNet stem max pool (torch.nn.MaxPool2d(kernel_size=3, stride=2, padding=1)) on an NCHW fp16
feature map: y[b, c, oh, ow] = max over the 3 x 3 window at (2 * oh - 1, 2 * ow - 1), padding = -inf."""
import torch

META = {
    "name": "maxpool2d_3x3_s2_p1",
    "level": 1,
    "category": "pooling",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 2, "C": 3, "H": 16, "W": 16},
        "ragged": {"B": 1, "C": 5, "H": 15, "W": 19},
        "large": {"B": 64, "C": 64, "H": 112, "W": 112},
    },
    "baseline_notes": "Programs = vector cores, each strides over (plane, 32-output-row) tasks; every window row is "
                      "read as two contiguous 2 * BLOCK_OW spans viewed as [BLOCK_OW, 2] pairs (columns 2ow-1, 2ow "
                      "and 2ow, 2ow+1) and max-reduced on chip, so no load has a non-unit last-axis stride.",
    "deterministic": True,
}


def _out(n: int) -> int:
    return (n + 2 - 3) // 2 + 1


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, C, H, W] (post conv1 + BN + ReLU activations: non-negative with many zeros)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["B"], s["C"], s["H"], s["W"], generator=g).relu()
    x = x - 0.25 * torch.rand(s["B"], s["C"], 1, 1, generator=g)  # some planes dip below zero
    return (x.to(dt).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.max_pool2d(x.double(), kernel_size=3, stride=2, padding=1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    planes = s["B"] * s["C"]
    outs = planes * _out(s["H"]) * _out(s["W"])
    return {"bytes": 2 * planes * s["H"] * s["W"] + 2 * outs, "flops": 8 * outs}
