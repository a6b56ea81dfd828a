"""FlagGems mv (torch.mv(A, x)) on a wide bf16 matrix [N, K] with K >> N, fp32 accumulation."""
import torch

META = {
    "name": "mv_wide",
    "level": 1,
    "category": "reduction",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"N": 70, "K": 3000},
        "ragged": {"N": 1001, "K": 30011},
        "large": {"N": 1024, "K": 65536},
    },
    "baseline_notes": "4 rows per program (256 programs at N = 1024), 1024-wide K chunks, fp32 accumulator, 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    a = torch.randn(s["N"], s["K"], generator=g).to(dt)
    x = (torch.randn(s["K"], generator=g) / s["K"] ** 0.5).to(dt)
    return a.to(device), x.to(device)


def reference(a: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    return (a.double() @ x.double()).to(a.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (s["N"] * s["K"] + s["K"] + s["N"]) * item, "flops": 2 * s["N"] * s["K"]}
