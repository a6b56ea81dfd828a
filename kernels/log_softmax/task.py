"""Row-wise log-softmax over the last dimension (torch.log_softmax(x, dim=-1))."""
import torch

META = {
    "name": "log_softmax",
    "level": 1,
    "category": "softmax",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 64, "N": 128},
        "ragged": {"M": 1000, "N": 1531},
        "large": {"M": 8192, "N": 8192},
    },
    "baseline_notes": "One program per row, BLOCK = next_power_of_2(N), whole row in registers, "
                      "fp32 math with -inf padding, num_warps left at the default; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """One [M, N] tensor of logits, standard normals scaled by 4."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = 4 * torch.randn(s["M"], s["N"], generator=g)
    return (x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.log_softmax(x.float(), dim=-1).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["M"] * s["N"] * item, "flops": 5 * s["M"] * s["N"]}
