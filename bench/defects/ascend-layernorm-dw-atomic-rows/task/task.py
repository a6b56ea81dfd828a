"""LayerNorm weight gradient: dW[n] = sum over rows of dy[m, n] * xhat[m, n] (the column
reduction of the LayerNorm backward in Liger-Kernel / apex), fp32 out. A local task for the
atomic-accumulation defect case."""
import torch

META = {
    "name": "layernorm_dw",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 5e-2, "rtol": 1e-3}, "bfloat16": {"atol": 5e-2, "rtol": 1e-3},
                  "float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"M": 64, "N": 128},
        "ragged": {"M": 1001, "N": 1531},
        "large": {"M": 16384, "N": 4096},
    },
    "baseline_notes": "One program per vector core accumulating its rows in an fp32 register row, "
                      "one partial row per program, then a second kernel summing the partial rows; "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dy [M, N] and the normalised input xhat [M, N]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    dy = torch.randn(s["M"], s["N"], generator=g)
    xhat = torch.randn(s["M"], s["N"], generator=g)
    return dy.to(device=device, dtype=dt), xhat.to(device=device, dtype=dt)


def reference(dy: torch.Tensor, xhat: torch.Tensor) -> torch.Tensor:
    return (dy.double() * xhat.double()).sum(0).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["M"] * s["N"] * item + 4 * s["N"], "flops": 2 * s["M"] * s["N"]}
