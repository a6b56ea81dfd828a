"""One fused AdamW step (torch.optim.AdamW's update, decoupled weight decay) returning new param, m and v."""
import torch

META = {
    "name": "adam_step",
    "level": 2,
    "category": "fused",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"n": 4096},
        "ragged": {"n": 1_000_003},
        "large": {"n": 16 * 1024 * 1024},
    },
    "baseline_notes": "Flat elementwise kernel, BLOCK=1024: loads param, grad, m, v; updates the "
                      "moments, bias-corrects with host-computed 1-beta^t, applies decoupled "
                      "weight decay and stores three new tensors; no autotune.",
    "deterministic": True,
}
LR, BETA1, BETA2, EPS, WEIGHT_DECAY = 1e-3, 0.9, 0.999, 1e-8, 0.01


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """param, grad, m, v [n] (v >= 0) and the 1-based step number."""
    n = META["sizes"][size]["n"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    param = torch.randn(n, generator=g)
    grad = 0.01 * torch.randn(n, generator=g)
    m = 0.01 * torch.randn(n, generator=g)
    v = 1e-4 * torch.rand(n, generator=g)
    return tuple(t.to(device=device, dtype=dt) for t in (param, grad, m, v)) + (10,)


def reference(param: torch.Tensor, grad: torch.Tensor, m: torch.Tensor, v: torch.Tensor,
              step: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    m_new = BETA1 * m + (1 - BETA1) * grad
    v_new = BETA2 * v + (1 - BETA2) * grad * grad
    m_hat = m_new / (1 - BETA1**step)
    v_hat = v_new / (1 - BETA2**step)
    p_new = param * (1 - LR * WEIGHT_DECAY) - LR * m_hat / (v_hat.sqrt() + EPS)
    return p_new, m_new, v_new


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["n"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 7 * n * item, "flops": 16 * n}
