"""Lion optimizer step (decoupled weight decay, sign of the interpolated momentum) on fp32 master weights
with bf16 gradients, returning the new parameters and the new momentum."""
import torch

META = {
    "name": "lion_step",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"R": 96, "C": 700},
        "ragged": {"R": 131, "C": 999},
        "large": {"R": 11008, "C": 4096},
    },
    "baseline_notes": "One flat elementwise kernel, 2,048 elements per program, 8 warps: the bf16 gradient is loaded "
                      "as stored and widened in registers; new weights and momentum written once.",
    "deterministic": True,
}

HYPER = {"lr": 1e-4, "beta1": 0.9, "beta2": 0.99, "weight_decay": 0.1}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """param [R, C] fp32 master weight, grad [R, C] bf16, exp_avg [R, C] fp32, then lr, beta1, beta2, weight_decay."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    param = torch.randn(s["R"], s["C"], generator=g) * 0.02
    grad = (torch.randn(s["R"], s["C"], generator=g) * 1e-3).to(torch.bfloat16)
    exp_avg = torch.randn(s["R"], s["C"], generator=g) * 1e-3
    return (param.to(dt).to(device), grad.to(device), exp_avg.to(dt).to(device),
            HYPER["lr"], HYPER["beta1"], HYPER["beta2"], HYPER["weight_decay"])


def reference(param, grad, exp_avg, lr, beta1, beta2, weight_decay) -> tuple:
    # lion-pytorch update_fn, written out in fp32
    g = grad.float()
    p = param * (1.0 - lr * weight_decay)
    c = exp_avg * beta1 + g * (1.0 - beta1)
    p = p - lr * torch.sign(c)
    m = exp_avg * beta2 + g * (1.0 - beta2)
    return p, m


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["R"] * s["C"]
    return {"bytes": (4 + 2 + 4 + 4 + 4) * n, "flops": 10 * n}
