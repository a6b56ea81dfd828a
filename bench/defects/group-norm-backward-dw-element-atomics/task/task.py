"""GroupNorm backward, weight and bias gradients: dW[c] = sum_{n,hw} dy * x_hat, dB[c] = sum_{n,hw} dy (Liger-Kernel group_norm backward)."""
import torch

META = {
    "name": "group_norm_backward_dwdb",
    "level": 2,
    "category": "norm",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 1e-3}, "bfloat16": {"atol": 2e-2, "rtol": 1e-3},
                  "float32": {"atol": 2e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 2, "C": 8, "G": 4, "HW": 64},
        "ragged": {"N": 3, "C": 96, "G": 32, "HW": 33 * 47},
        "large": {"N": 16, "C": 512, "G": 32, "HW": 64 * 64},
    },
    "baseline_notes": "One program per (sample, group): for each channel of the group, an fp32 vector sum of "
                      "dy * x_hat and dy over HW in 1024-element chunks, tl.sum, then one atomic add per channel "
                      "into dW and dB; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x and dy [N, C, HW] in the dtype, the forward's mean and rstd [N, G] in fp32, and G."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    x = (1.5 * torch.randn(s["N"], s["C"], s["HW"], generator=g) + 0.3).to(dt)
    dy = torch.randn(s["N"], s["C"], s["HW"], generator=g).to(dt)
    xg = x.float().reshape(s["N"], s["G"], -1)
    mean = xg.mean(-1)
    rstd = torch.rsqrt(xg.var(-1, unbiased=False) + 1e-5)
    return x.to(device), dy.to(device), mean.to(device), rstd.to(device), s["G"]


def reference(x, dy, mean, rstd, groups):
    N, C, HW = x.shape
    xg = x.double().reshape(N, groups, -1)
    xhat = ((xg - mean.double()[..., None]) * rstd.double()[..., None]).reshape(N, C, HW)
    dyd = dy.double()
    return (dyd * xhat).sum((0, 2)).float(), dyd.sum((0, 2)).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["C"] * s["HW"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * n * item + 8 * s["N"] * s["G"] + 8 * s["C"], "flops": 4 * n}
