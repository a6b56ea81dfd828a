"""int8 x int8 -> int32 matmul (torch._int_mm; TritonBench-G int8 matmul / torchao int_matmul), A [M, K], B [K, N]."""
import torch

META = {
    "name": "int8_mm",
    "level": 2,
    "category": "matmul",
    "dtypes": ["int8"],
    "tolerance": {"int8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"M": 200, "N": 72, "K": 128},
        "ragged": {"M": 1024, "N": 2048, "K": 1024},
        "large": {"M": 8192, "N": 8192, "K": 8192},
    },
    "baseline_notes": "128x128x64 tiles, 8 warps, 4 stages, grouped program order (GROUP_M = 8).",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    a = torch.randint(-128, 128, (s["M"], s["K"]), generator=g, dtype=torch.int8)
    b = torch.randint(-128, 128, (s["K"], s["N"]), generator=g, dtype=torch.int8)
    return a.to(device), b.to(device)


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return (a.double() @ b.double()).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["M"] * s["K"] + s["K"] * s["N"] + 4 * s["M"] * s["N"], "flops": 2 * s["M"] * s["N"] * s["K"]}
