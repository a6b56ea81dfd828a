"""ReLU / threshold backward (torch.ops.aten.threshold_backward(grad, x, threshold)): the gradient passes where x > threshold, else 0."""
import torch

META = {
    "name": "threshold_backward",
    "level": 1,
    "category": "activation",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 0, "rtol": 0}, "float16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 6000},
        "ragged": {"N": 1000003},
        "large": {"N": 67108864},
    },
    "baseline_notes": "Flat grid, BLOCK from a heuristic (4096 for large tensors): both inputs loaded with the bounds "
                      "mask only, the threshold applied with tl.where; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """grad [N], x [N] (the forward input, about half above the threshold), threshold 0.0."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return torch.randn(n, generator=g).to(dt).to(device), torch.randn(n, generator=g).to(dt).to(device), 0.0


def reference(grad: torch.Tensor, x: torch.Tensor, threshold: float) -> torch.Tensor:
    return torch.ops.aten.threshold_backward(grad, x, threshold)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 3 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": n}
