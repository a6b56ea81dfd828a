"""GroupNorm backward (torch.ops.aten.native_group_norm_backward) for the Stable Diffusion XL UNet's resnet
GroupNorm(32, C): from x [N, C, H, W], the upstream gradient dy, the forward's saved mean / rstd [N, G] and the
weight gamma [C], compute dx, dgamma [C] and dbeta [C] (all fp32, as autocast runs group_norm in fp32)."""
import torch

META = {
    "name": "sdxl_group_norm_backward",
    "level": 2,
    "category": "norm",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 2, "C": 12, "H": 6, "W": 10, "G": 4},
        "ragged": {"N": 3, "C": 30, "H": 13, "W": 17, "G": 3},
        "large": {"N": 4, "C": 320, "H": 128, "W": 128, "G": 32},
    },
    "baseline_notes": "Three launches, grid = 40 vector cores looping over tasks: per (n, c) plane the sums "
                      "ds = sum(dy * x) and db = sum(dy) (4,096-wide blocks); per (n, c) plane the group's "
                      "coefficients from the C/G planes' ds, db and gamma, then dx = a * dy + b * x + c in one pass; "
                      "per channel block dgamma / dbeta from ds, db, mean, rstd over the batch.",
    "deterministic": True,
}

EPS = 1e-5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x, dy [N, C, H, W]; mean, rstd [N, G] as the forward saved them; gamma [C]; the group count G."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    n, c, h, w, groups = s["N"], s["C"], s["H"], s["W"], s["G"]
    x = torch.randn(n, c, h, w, generator=g) * 1.5 + torch.randn(n, c, 1, 1, generator=g)
    dy = torch.randn(n, c, h, w, generator=g) * 0.1
    gamma = 1.0 + 0.2 * torch.randn(c, generator=g)
    xg = x.double().view(n, groups, -1)
    mean = xg.mean(dim=-1)
    rstd = torch.rsqrt(xg.var(dim=-1, unbiased=False) + EPS)
    return (x.to(dt).to(device), dy.to(dt).to(device), mean.to(dt).to(device), rstd.to(dt).to(device),
            gamma.to(dt).to(device), groups)


def reference(x: torch.Tensor, dy: torch.Tensor, mean: torch.Tensor, rstd: torch.Tensor, gamma: torch.Tensor,
              num_groups: int) -> tuple:
    xd = x.double().detach().requires_grad_(True)
    wd = gamma.double().detach().requires_grad_(True)
    bd = torch.zeros_like(wd, requires_grad=True)
    y = torch.nn.functional.group_norm(xd, num_groups, wd, bd, EPS)
    dx, dgamma, dbeta = torch.autograd.grad(y, (xd, wd, bd), dy.double())
    return dx.float(), dgamma.float(), dbeta.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    numel = s["N"] * s["C"] * s["H"] * s["W"]
    return {"bytes": 4 * 3 * numel + 4 * (2 * s["N"] * s["G"] + 3 * s["C"]), "flops": 7 * numel}
