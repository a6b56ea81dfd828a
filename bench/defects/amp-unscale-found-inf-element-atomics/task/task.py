"""AMP GradScaler unscale step: grads * inv_scale over a flat fp32 gradient bucket, plus the found_inf flag
(torch._amp_foreach_non_finite_check_and_unscale_)."""
import torch

META = {
    "name": "amp_unscale_found_inf",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-6}},
    "sizes": {
        "small": {"N": 70_000},
        "ragged": {"N": 123_457},
        "large": {"N": 40_000_000},
    },
    "baseline_notes": "One program per 4,096 gradients: scaled store, the block's non-finite indicator reduced with "
                      "tl.max on chip, one atomic_max into found_inf per program; 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """grads [N] (one Megatron DDP bucket of fp32 main grads, still multiplied by the loss scale), inv_scale [1]."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    scale = 65536.0
    grads = torch.randn(n, generator=g) * 1e-3 * scale
    if seed % 2 == 1:  # an overflowed step: a couple of inf gradients
        idx = torch.randint(0, n, (2,), generator=g)
        grads[idx[0]] = float("inf")
        grads[idx[1]] = float("-inf")
    inv_scale = torch.tensor([1.0 / scale])
    return grads.to(dt).to(device), inv_scale.to(device)


def reference(grads: torch.Tensor, inv_scale: torch.Tensor) -> tuple:
    out = grads * inv_scale
    found_inf = (~torch.isfinite(grads)).any().to(torch.float32).reshape(1)
    return out, found_inf


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 8 * n, "flops": 2 * n}
