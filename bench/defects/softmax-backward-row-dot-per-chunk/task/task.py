"""Softmax backward along the last dim, dx = y * (dy - sum(y * dy, -1)) (FlagGems softmax_backward), on long rows."""
import torch

META = {
    "name": "softmax_backward",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"M": 4, "N": 3000},
        "ragged": {"M": 33, "N": 10007},
        "large": {"M": 1024, "N": 65536},
    },
    "baseline_notes": "One program per row; pass 1 loops over the row in 4096-column chunks for sum(y * dy), "
                      "pass 2 loops again writing y * (dy - dot); 8 warps; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """y = softmax of normals over each row (the forward output), dy of normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    y = torch.softmax(torch.randn(s["M"], s["N"], generator=g), dim=-1).to(dt)
    dy = torch.randn(s["M"], s["N"], generator=g).to(dt)
    return y.to(device), dy.to(device)


def reference(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    y64, dy64 = y.double(), dy.double()
    return (y64 * (dy64 - (y64 * dy64).sum(-1, keepdim=True))).to(y.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 3 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 4 * n}
