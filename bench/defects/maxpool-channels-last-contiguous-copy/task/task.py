"""2x2 max pooling, stride 2 (F.max_pool2d(x, 2)), on a channels_last activation."""
import torch

META = {
    "name": "max_pool2d_nhwc",
    "level": 1,
    "category": "reduction",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 0, "rtol": 0}, "float16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 2, "C": 12, "H": 10, "W": 14},
        "ragged": {"N": 3, "C": 67, "H": 57, "W": 61},
        "large": {"N": 64, "C": 128, "H": 112, "W": 112},
    },
    "baseline_notes": "Stride-generic kernel on the channels_last input as given: (n * OH + oh, ow block, c block) grid, "
                      "[32, 64] (ow, c) tiles, output allocated channels_last; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C, H, W] in torch.channels_last memory format (a conv net run with channels_last)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["N"], s["C"], s["H"], s["W"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    return (x.to(device).contiguous(memory_format=torch.channels_last),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.max_pool2d(x, 2)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["C"] * s["H"] * s["W"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": item * (n + n // 4), "flops": 3 * n // 4}
