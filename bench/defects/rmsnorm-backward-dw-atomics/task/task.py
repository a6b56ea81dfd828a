"""RMSNorm backward (LLaMA training): dx and the weight gradient dw = sum over rows of dy * x * rstd, from the saved rstd."""
import torch

META = {
    "name": "rmsnorm_backward",
    "level": 2,
    "category": "norm",
    "dtypes": ["float16", "bfloat16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 5e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 64, "N": 128},
        "ragged": {"M": 1000, "N": 1531},
        "large": {"M": 16384, "N": 4096},
    },
    "baseline_notes": "One program per SM walks a strided set of rows: dx per row from registers, the dw "
                      "contribution accumulated in an fp32 register row, stored as one partial per program; "
                      "a second kernel sums the partials per column (Liger-Kernel's scheme); no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dy, x [M, N] standard normals; w [N] around 1; rstd [M] fp32 as the forward saved it."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["M"], s["N"], generator=g).to(dt)
    dy = torch.randn(s["M"], s["N"], generator=g).to(dt)
    w = (1 + 0.1 * torch.randn(s["N"], generator=g)).to(dt)
    rstd = torch.rsqrt(x.float().pow(2).mean(dim=-1) + 1e-6)
    return dy.to(device), x.to(device), w.to(device), rstd.to(device)


def reference(dy, x, w, rstd) -> tuple[torch.Tensor, torch.Tensor]:
    xhat = x.float() * rstd[:, None]
    g = dy.float() * w.float()
    dx = rstd[:, None] * (g - xhat * (g * xhat).mean(dim=-1, keepdim=True))
    dw = (dy.float() * xhat).sum(dim=0)
    return dx.to(x.dtype), dw


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    M, N = s["M"], s["N"]
    return {"bytes": 3 * M * N * item + 4 * M + 6 * N, "flops": 8 * M * N}
