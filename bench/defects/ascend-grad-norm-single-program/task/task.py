"""Global L2 norm of a flat gradient buffer (torch.linalg.vector_norm(grad), the total norm of clip_grad_norm_), fp32 0-dim result."""
import torch

META = {
    "name": "grad_global_norm",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 7000},
        "ragged": {"N": 1000003},
        "large": {"N": 67108864},
    },
    "baseline_notes": "Two stages: one program per vector core (48 on an A2) sums squares over 8192-element blocks "
                      "pid, pid + 48, ... into a partial; one program adds the 48 partials and takes the square root.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """grad [N], the contiguous fp32 gradient buffer of a model (per-parameter scales)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    scale = torch.exp(torch.randn((n + 4095) // 4096, generator=g)).repeat_interleave(4096)[:n] * 1e-3
    return ((torch.randn(n, generator=g) * scale).to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(grad: torch.Tensor) -> torch.Tensor:
    return torch.linalg.vector_norm(grad.double()).to(grad.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 4 * n + 4, "flops": 2 * n}
