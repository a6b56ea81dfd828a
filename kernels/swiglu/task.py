"""SwiGLU gate of a LLaMA MLP: silu(gate) * up from the fused gate_up projection [M, 2N] (vLLM SiluAndMul)."""
import torch

META = {
    "name": "swiglu",
    "level": 2,
    "category": "fused",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 2e-2, "rtol": 2e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 16, "N": 128},
        "ragged": {"M": 1000, "N": 1531},
        "large": {"M": 8192, "N": 11008},
    },
    "baseline_notes": "2-D grid (row, 1024-column block): loads gate and up halves of the row, "
                      "silu(gate) = gate * sigmoid(gate) in fp32, one store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """The fused projection output x [M, 2N]: gate in the first N columns, up in the last N."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = 2 * torch.randn(s["M"], 2 * s["N"], generator=g)
    return (x.to(device=device, dtype=getattr(torch, dtype or META["dtypes"][0])),)


def reference(x: torch.Tensor) -> torch.Tensor:
    gate, up = x.chunk(2, dim=-1)
    return (torch.nn.functional.silu(gate.float()) * up.float()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 3 * s["M"] * s["N"] * item, "flops": 5 * s["M"] * s["N"]}
