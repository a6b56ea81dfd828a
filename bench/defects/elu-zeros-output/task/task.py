"""ELU activation (torch.nn.functional.elu(x, alpha)): x where x > 0, alpha * (exp(x) - 1) elsewhere."""
import torch

META = {
    "name": "elu",
    "level": 1,
    "category": "activation",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}, "float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"M": 37, "N": 300},
        "ragged": {"M": 1001, "N": 3001},
        "large": {"M": 16384, "N": 8192},
    },
    "baseline_notes": "Flat grid over the contiguous 2-D activation, 2048 elements per program, result into torch.empty_like; "
                      "ELU in fp32, 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N] activations, alpha 1.0."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    return torch.randn(s["M"], s["N"], generator=g).to(getattr(torch, dtype or META["dtypes"][0])).to(device), 1.0


def reference(x: torch.Tensor, alpha: float) -> torch.Tensor:
    return torch.nn.functional.elu(x.float(), alpha).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 4 * n}
