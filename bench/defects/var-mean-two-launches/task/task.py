"""torch.var_mean(x, dim=-1, correction=1) over the rows of [M, N], results in the input dtype (FlagGems var_mean)."""
import torch

META = {
    "name": "var_mean",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 2e-3}, "bfloat16": {"atol": 1e-2, "rtol": 1e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 16, "N": 1000},
        "ragged": {"M": 3001, "N": 5003},
        "large": {"M": 16384, "N": 8192},
    },
    "baseline_notes": "One program per row, BLOCK = next_power_of_2(N), the row in registers: fp32 mean, then "
                      "the sum of squared deviations from registers, both stored in the input dtype; 8 warps; "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N] of normals with mean 0.5 and std 2."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = (2 * torch.randn(s["M"], s["N"], generator=g) + 0.5).to(getattr(torch, dtype or META["dtypes"][0]))
    return (x.to(device),)


def reference(x: torch.Tensor):
    var, mean = torch.var_mean(x.double(), dim=-1, correction=1)
    return var.to(x.dtype), mean.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (s["M"] * s["N"] + 2 * s["M"]) * item, "flops": 4 * s["M"] * s["N"]}
