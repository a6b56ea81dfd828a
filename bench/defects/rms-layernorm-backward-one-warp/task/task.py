"""RMSNorm backward, input gradient: dX = rstd * (dY W - x_hat * mean(dY W x_hat)) with x_hat = X rstd, per row."""
import torch

META = {
    "name": "rmsnorm_backward_dx",
    "level": 2,
    "category": "norm",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 3e-2}, "float16": {"atol": 5e-3, "rtol": 5e-3}},
    "sizes": {
        "small": {"M": 9, "N": 300},
        "ragged": {"M": 1001, "N": 3001},
        "large": {"M": 16384, "N": 8192},
    },
    "baseline_notes": "One program per row, BLOCK = next_power_of_2(N); 16 warps at 8192 columns (unsloth's "
                      "calculate_settings: 8 from 2048, 16 from 8192, 32 from 32768).",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dY [M, N], X [M, N], W [N] (activation dtype), rstd [M] fp32 saved by the forward, eps folded in."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["M"], s["N"], generator=g).to(dt)
    dy = (torch.randn(s["M"], s["N"], generator=g) * 0.1).to(dt)
    w = (1.0 + 0.1 * torch.randn(s["N"], generator=g)).to(dt)
    rstd = torch.rsqrt(x.float().pow(2).mean(dim=1) + 1e-6)
    return dy.to(device), x.to(device), w.to(device), rstd.to(device)


def reference(dy: torch.Tensor, x: torch.Tensor, w: torch.Tensor, rstd: torch.Tensor) -> torch.Tensor:
    x_hat = x.float() * rstd[:, None]
    dyw = dy.float() * w.float()
    return (rstd[:, None] * (dyw - x_hat * (dyw * x_hat).mean(dim=1, keepdim=True))).to(dy.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 3 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 4 * s["M"], "flops": 7 * n}
