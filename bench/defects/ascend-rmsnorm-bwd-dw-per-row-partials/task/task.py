"""RMSNorm backward (Liger-Kernel LigerRMSNorm, offset 0, math in fp32): from dY, X, the weight W and the
forward's saved per-row rstd = 1 / sqrt(mean(x^2) + eps), return
dX = rstd * (dY*W - x_hat * mean(dY*W*x_hat)) with x_hat = X * rstd, and dW = sum over rows of dY * x_hat."""
import torch

META = {
    "name": "rmsnorm_backward",
    "level": 2,
    "category": "norm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 48, "N": 256},
        "ragged": {"M": 333, "N": 1000},
        "large": {"M": 8192, "N": 4096},
    },
    "baseline_notes": "Liger layout: 40 programs (one per vector core), each takes a contiguous range of rows, "
                      "computes dX row by row from the whole row in UB and keeps its dW partial in an fp32 "
                      "register vector; a second kernel sums the [40, N] partials column-wise.",
    "deterministic": True,
}

EPS = 1e-6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dy, x [M, N] and w [N] in dtype; rstd [M] fp32 as the forward saved it."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = (torch.randn(s["M"], s["N"], generator=g) * 2.0).to(dt)
    dy = torch.randn(s["M"], s["N"], generator=g).to(dt)
    w = (1.0 + 0.1 * torch.randn(s["N"], generator=g)).to(dt)
    rstd = torch.rsqrt(x.float().pow(2).mean(-1) + EPS)
    return dy.to(device), x.to(device), w.to(device), rstd.to(device)


def reference(dy, x, w, rstd) -> tuple:
    dyd, xd, wd, r = dy.float(), x.float(), w.float(), rstd.float()[:, None]
    x_hat = xd * r
    m = dyd * wd
    dx = r * (m - x_hat * (m * x_hat).mean(-1, keepdim=True))
    dw = (dyd * x_hat).sum(0)
    return dx.to(x.dtype), dw.to(w.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 3 * s["M"] * s["N"] * item + 2 * s["N"] * item + 4 * s["M"],
            "flops": 9 * s["M"] * s["N"]}
