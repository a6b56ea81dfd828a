"""AdamW step on bf16 parameters with fp32 moments and stochastic rounding of the updated parameter
back to bf16 (torchao.optim _AdamW / AdamW8bit with bf16_stochastic_round=True): decoupled weight
decay, exp_avg / exp_avg_sq updates, bias-corrected step in fp32, then the fp32 result is rounded
to one of its two bf16 neighbours with probability proportional to closeness (16 random bits per
element). Returns new tensors (param bf16, exp_avg fp32, exp_avg_sq fp32) instead of updating in place."""
import math

import torch

META = {
    "name": "adamw_bf16_stochastic_round",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"N": 8192},
        "ragged": {"N": 100003},
        "large": {"N": 128256 * 4096},
    },
    "baseline_notes": "Grid of 40 programs (Atlas A2 vector cores) striding over 4,096-element chunks; one Philox "
                      "call (randint4x) per 4 elements supplies the 16-bit rounding draws of four 1,024-element "
                      "sub-blocks.",
    "deterministic": False,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """param [N] bf16 (std 0.02, an embedding / lm_head weight), grad [N] bf16, exp_avg [N] and
    exp_avg_sq [N] fp32 from earlier steps, then lr, beta1, beta2, eps, weight_decay, step, rng seed."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    param = (0.02 * torch.randn(n, generator=g)).to(dt)
    grad = (1e-3 * torch.randn(n, generator=g)).to(dt)
    exp_avg = 1e-3 * torch.randn(n, generator=g)
    exp_avg_sq = 1e-6 * torch.rand(n, generator=g) + 1e-8
    return (param.to(device), grad.to(device), exp_avg.to(device), exp_avg_sq.to(device),
            1e-4, 0.9, 0.95, 1e-8, 0.1, 10, 1234 + seed)


def _exact(param, grad, exp_avg, exp_avg_sq, lr, beta1, beta2, eps, weight_decay, step):
    p, gr = param.double(), grad.double()
    m = beta1 * exp_avg.double() + (1 - beta1) * gr
    v = beta2 * exp_avg_sq.double() + (1 - beta2) * gr * gr
    bc1, bc2 = 1 - beta1 ** step, 1 - beta2 ** step
    p = p * (1 - lr * weight_decay)
    p = p - (lr / bc1) * m / (v.sqrt() / math.sqrt(bc2) + eps)
    return p, m, v


def reference(param, grad, exp_avg, exp_avg_sq, lr, beta1, beta2, eps, weight_decay, step, seed) -> tuple:
    """The update with round-to-nearest in place of the stochastic rounding (check() is the test)."""
    p, m, v = _exact(param, grad, exp_avg, exp_avg_sq, lr, beta1, beta2, eps, weight_decay, step)
    return p.to(param.dtype), m.float(), v.float()


def check(inputs: tuple, output: tuple) -> str | None:
    """Moments match; each new param is one of the two bf16 neighbours of the exact fp32 update; the
    rounding is unbiased (mean signed error in bf16 ulps within 0.05 of 0, truncation would give ~-0.5)."""
    param = inputs[0]
    p_ref, m_ref, v_ref = _exact(*inputs[:10])
    if not isinstance(output, tuple) or len(output) != 3:
        return "expected (param, exp_avg, exp_avg_sq)"
    p, m, v = output
    if p.dtype != param.dtype or p.shape != param.shape:
        return f"param out {p.dtype}{list(p.shape)}, expected {param.dtype}{list(param.shape)}"
    if m.dtype != torch.float32 or v.dtype != torch.float32 or m.shape != param.shape or v.shape != param.shape:
        return "moments must be fp32 of the param's shape"
    if not torch.allclose(m.double().cpu(), m_ref.cpu(), rtol=1e-5, atol=1e-9):
        return "exp_avg differs from the reference"
    if not torch.allclose(v.double().cpu(), v_ref.cpu(), rtol=1e-5, atol=1e-12):
        return "exp_avg_sq differs from the reference"
    p_ref = p_ref.cpu()
    exponent = torch.floor(torch.log2(p_ref.abs().clamp_min(1e-30)))
    ulp = torch.pow(2.0, exponent - 7)
    err = (p.double().cpu() - p_ref) / ulp
    if err.abs().max().item() > 1.01:
        return f"param off by {err.abs().max().item():.3f} bf16 ulps (more than one neighbour away)"
    bias = ((p.double().cpu().abs() - p_ref.abs()) / ulp).mean().item()
    if abs(bias) > 0.05:
        return f"rounding is biased: mean error {bias:.3f} ulps toward larger magnitude"
    return None


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": n * (2 + 2 + 2 + 4 * 4), "flops": 20 * n}
