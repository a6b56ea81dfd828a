"""One factored Adafactor step on a bf16 weight matrix (HF transformers Adafactor with
scale_parameter=False, relative_step=False, beta1=None, weight_decay=0): the row and column means of
grad^2 + eps1 update the factored second-moment EMAs, the update is grad / sqrt(row/mean(row) x col),
clipped to RMS <= clip_threshold, scaled by lr and subtracted from the parameter in fp32.
Returns (new param bf16, new exp_avg_sq_row fp32, new exp_avg_sq_col fp32)."""
import torch

META = {
    "name": "adafactor_factored_step",
    "level": 2,
    "category": "fused",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 5e-4, "rtol": 1e-2}},
    "sizes": {
        "small": {"R": 48, "C": 40},
        "ragged": {"R": 333, "C": 130},
        "large": {"R": 5120, "C": 2048},
    },
    "baseline_notes": "Four kernels over 40 vector-core programs, all loading bf16 and computing in fp32: "
                      "full-row tiles give row sums of grad^2 (row EMA stored) and per-program column partials; "
                      "one program folds the column partials into the column EMA and the row-EMA mean; the "
                      "update's sum of squares per program; then the clipped, lr-scaled update is applied and "
                      "the parameter stored as bf16.",
    "deterministic": True,
}

STEP = 100
LR = 1e-2
EPS1 = 1e-30
CLIP_THRESHOLD = 1.0
DECAY_RATE = -0.8


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """param and grad [R, C] in dtype (grads with per-row and per-column scales), the previous row
    and column EMAs (fp32, positive), the step number and lr."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    param = torch.randn(s["R"], s["C"], generator=g) * 0.02
    row_scale = torch.exp(torch.randn(s["R"], 1, generator=g) * 0.5)
    col_scale = torch.exp(torch.randn(1, s["C"], generator=g) * 0.5)
    grad = torch.randn(s["R"], s["C"], generator=g) * row_scale * col_scale
    row = (row_scale[:, 0] ** 2) * (0.5 + torch.rand(s["R"], generator=g))
    col = (col_scale[0] ** 2) * (0.5 + torch.rand(s["C"], generator=g))
    return param.to(dt).to(device), grad.to(dt).to(device), row.to(device), col.to(device), STEP, LR


def reference(param, grad, exp_avg_sq_row, exp_avg_sq_col, step, lr):
    g = grad.double()
    p = param.double()
    beta2t = 1.0 - step ** DECAY_RATE
    update = g * g + EPS1
    row = exp_avg_sq_row.double() * beta2t + update.mean(dim=-1) * (1.0 - beta2t)
    col = exp_avg_sq_col.double() * beta2t + update.mean(dim=-2) * (1.0 - beta2t)
    r_factor = (row / row.mean(dim=-1, keepdim=True)).rsqrt().unsqueeze(-1)
    c_factor = col.unsqueeze(-2).rsqrt()
    update = r_factor * c_factor * g
    rms = update.pow(2).mean().sqrt()
    update = update / (rms / CLIP_THRESHOLD).clamp(min=1.0)
    p = p - lr * update
    return p.to(param.dtype), row.float(), col.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["R"] * s["C"]
    return {"bytes": 2 * 3 * n + 8 * (s["R"] + s["C"]), "flops": 12 * n}
