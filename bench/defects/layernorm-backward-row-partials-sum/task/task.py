"""LayerNorm backward with the statistics saved by the forward: dx, dgamma = sum_rows(dy * xhat),
dbeta = sum_rows(dy); bf16 activations, fp32 weight (mixed-precision training)."""
import torch

META = {
    "name": "layernorm_backward",
    "level": 2,
    "category": "norm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 37, "N": 200},
        "ragged": {"M": 301, "N": 1000},
        "large": {"M": 16384, "N": 6144},
    },
    "baseline_notes": "Persistent backward: one program per SM walks a contiguous range of rows, writes dx per row "
                      "and keeps the dgamma / dbeta partial sums in fp32 registers, stored once as a [num_SMs, N] "
                      "partial; a column-sum kernel adds the num_SMs partial rows.",
    "deterministic": True,
}

EPS = 1e-5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dy [M, N], x [M, N] (bf16), weight [N] fp32, and the forward's saved mean [M] and rstd [M] (fp32)."""
    s = META["sizes"][size]
    M, N = s["M"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = (torch.randn(M, N, generator=g) * 2.0 + 0.3).to(dt)
    dy = (torch.randn(M, N, generator=g) * 0.5).to(dt)
    w = 1.0 + 0.1 * torch.randn(N, generator=g)
    xf = x.float()
    mean = xf.mean(dim=1)
    rstd = torch.rsqrt(xf.var(dim=1, unbiased=False) + EPS)
    return dy.to(device), x.to(device), w.to(device), mean.to(device), rstd.to(device)


def reference(dy: torch.Tensor, x: torch.Tensor, w: torch.Tensor, mean: torch.Tensor, rstd: torch.Tensor) -> tuple:
    dyd, xd, wd = dy.double(), x.double(), w.double()
    rs = rstd.double()[:, None]
    xhat = (xd - mean.double()[:, None]) * rs
    wdy = wd * dyd
    c1 = (xhat * wdy).mean(dim=1, keepdim=True)
    c2 = wdy.mean(dim=1, keepdim=True)
    dx = (wdy - (xhat * c1 + c2)) * rs
    return dx.to(dy.dtype), (dyd * xhat).sum(dim=0).float(), dyd.sum(dim=0).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    M, N = s["M"], s["N"]
    return {"bytes": 3 * item * M * N + 12 * N + 8 * M, "flops": 12 * M * N}
