"""SiLU / swish activation x * sigmoid(x), as in LLaMA MLPs (torch.nn.functional.silu)."""
import torch

META = {
    "name": "silu",
    "level": 1,
    "category": "activation",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 32, "N": 256},
        "ragged": {"M": 1000, "N": 3071},
        "large": {"M": 8192, "N": 4096},
    },
    "baseline_notes": "Flattened elementwise kernel, BLOCK=1024, upcast to fp32 for the "
                      "sigmoid, store in the input dtype; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """One [M, N] activation tensor of standard normals scaled by 3."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = 3 * torch.randn(s["M"], s["N"], generator=g)
    return (x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.silu(x.float()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * n * item, "flops": 4 * n}
