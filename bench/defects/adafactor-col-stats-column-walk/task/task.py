"""Adafactor factored second moment: the row and column running means of grad^2 + eps1 for a 2-D weight
(exp_avg_sq_row over the last dim, exp_avg_sq_col over the first), one optimizer step."""
import torch

META = {
    "name": "adafactor_factored_second_moment",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-9, "rtol": 1e-4}},
    "sizes": {
        "small": {"R": 300, "C": 200},
        "ragged": {"R": 517, "C": 333},
        "large": {"R": 10240, "C": 4096},
    },
    "baseline_notes": "Row means: one program per row, 1,024-wide contiguous chunks. Column means: one program per "
                      "16 adjacent columns walking [128, 16] tiles down the rows, summed in a register tile; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """grad [R, C], exp_avg_sq_row [R], exp_avg_sq_col [C], beta2t (step 100, decay_rate -0.8), eps1."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    grad = torch.randn(s["R"], s["C"], generator=g) * 1e-3
    row = torch.rand(s["R"], generator=g) * 2e-6
    col = torch.rand(s["C"], generator=g) * 2e-6
    beta2t = 1.0 - 100.0 ** -0.8
    return grad.to(dt).to(device), row.to(dt).to(device), col.to(dt).to(device), beta2t, 1e-30


def reference(grad, exp_avg_sq_row, exp_avg_sq_col, beta2t, eps1) -> tuple:
    # HF transformers Adafactor.step, factored branch
    update = grad.double() ** 2 + eps1
    row = exp_avg_sq_row.double() * beta2t + update.mean(dim=-1) * (1.0 - beta2t)
    col = exp_avg_sq_col.double() * beta2t + update.mean(dim=-2) * (1.0 - beta2t)
    return row.to(grad.dtype), col.to(grad.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["R"] * s["C"]
    return {"bytes": 2 * 4 * n + 8 * (s["R"] + s["C"]), "flops": 6 * n}
