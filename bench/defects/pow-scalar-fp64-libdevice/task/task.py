"""torch.pow(x, exponent) with a Python-float exponent (gamma 1/2.2) on a non-negative tensor (FlagGems pow_tensor_scalar)."""
import torch

META = {
    "name": "pow_scalar",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-3, "rtol": 2e-3}, "bfloat16": {"atol": 8e-3, "rtol": 1e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 10_000},
        "ragged": {"N": 1_000_003},
        "large": {"N": 64 * 1024 * 1024},
    },
    "baseline_notes": "Flat kernel, BLOCK=1024, exp2(e * log2(x)) in fp32 on the upcast input, store in the input "
                      "dtype; no autotune.",
    "deterministic": True,
}

GAMMA = 1 / 2.2


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N] uniform in [0, 1) (linear-light pixel values) and the exponent 1/2.2."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    return x.to(device), GAMMA


def reference(x: torch.Tensor, exponent: float) -> torch.Tensor:
    return torch.pow(x.float(), exponent).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize, "flops": 2 * n}
