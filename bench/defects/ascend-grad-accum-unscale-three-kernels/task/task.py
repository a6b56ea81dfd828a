"""fp16 mixed-precision gradient accumulation with dynamic loss scaling (Megatron-LM / apex style): one
micro-batch's fp16 gradient, still multiplied by the loss scale, is unscaled with the device-side
inv_scale, checked for inf/nan (GradScaler's found_inf) and added into the fp32 main_grad.
Returns (main_grad + grad * inv_scale as a new fp32 tensor, found_inf [1] fp32 = 1.0 if any non-finite)."""
import torch

META = {
    "name": "grad_accum_unscale",
    "level": 2,
    "category": "fused",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-6, "rtol": 1e-6}},
    "sizes": {
        "small": {"N": 5000},
        "ragged": {"N": 123457},
        "large": {"N": 40000000},
    },
    "baseline_notes": "One kernel, 40 programs (one per vector core) each over a contiguous 8,192-aligned range "
                      "in 8,192-element blocks: load the fp16 grad and the fp32 main_grad, unscale and add in "
                      "fp32, store, keep a running non-finite flag in a register and issue one atomic_max per "
                      "program into found_inf.",
    "deterministic": True,
}

LOSS_SCALE = 65536.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """main_grad [N] fp32, grad [N] in dtype (true gradient x loss scale; odd seeds carry a few overflowed
    inf elements) and inv_scale [1] fp32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    main_grad = 1e-3 * torch.randn(s["N"], generator=g)
    grad = (1e-4 * torch.randn(s["N"], generator=g) * LOSS_SCALE).to(dt)
    if seed % 2 == 1:
        idx = torch.randint(0, s["N"], (3,), generator=g)
        grad[idx] = torch.tensor([float("inf"), float("-inf"), float("inf")], dtype=dt)
    inv_scale = torch.tensor([1.0 / LOSS_SCALE], dtype=torch.float32)
    return main_grad.to(device), grad.to(device), inv_scale.to(device)


def reference(main_grad: torch.Tensor, grad: torch.Tensor, inv_scale: torch.Tensor) -> tuple:
    new = main_grad.float() + grad.float() * inv_scale.float()
    found = (~torch.isfinite(grad)).any().float().reshape(1)
    return new, found


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": s["N"] * (item + 8) + 8, "flops": 3 * s["N"]}
