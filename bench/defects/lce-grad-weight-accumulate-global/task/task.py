"""LM-head weight-gradient accumulation of a chunked fused linear cross-entropy: grad_W + grad_logits^T @ x (Liger's torch.addmm(grad_weight, grad_logits_chunk.t(), x_chunk)), out of place."""
import torch

META = {
    "name": "lm_head_wgrad_accumulate",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"T": 64, "V": 48, "H": 80},
        "ragged": {"T": 1000, "V": 3001, "H": 1000},
        "large": {"T": 4096, "V": 16384, "H": 4096},
    },
    "baseline_notes": "Grid (V tile, H tile) of 128 x 128 fp32 accumulators started from the grad_W tile, a 64-wide "
                      "token loop of bf16 tl.dot (grad_logits tile read transposed), one store; 4 warps, 3 stages.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """grad_logits [T, V] and x [T, H] in the activation dtype, the running fp32 grad_W [V, H]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    grad_logits = (torch.randn(s["T"], s["V"], generator=g) / s["T"] ** 0.5).to(dt)
    x = torch.randn(s["T"], s["H"], generator=g).to(dt)
    grad_w = 0.1 * torch.randn(s["V"], s["H"], generator=g)
    return grad_logits.to(device), x.to(device), grad_w.to(device)


def reference(grad_logits: torch.Tensor, x: torch.Tensor, grad_w: torch.Tensor) -> torch.Tensor:
    return torch.addmm(grad_w.double(), grad_logits.double().t(), x.double()).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    t, v, h = s["T"], s["V"], s["H"]
    return {"bytes": (t * v + t * h) * item + 8 * v * h, "flops": 2 * t * v * h}
