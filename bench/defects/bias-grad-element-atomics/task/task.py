"""Bias gradient of nn.Linear, grad_bias = grad_output.sum(0) over all tokens (Megatron / apex fused wgrad's bias part), accumulated in fp32."""
import torch

META = {
    "name": "linear_bias_grad",
    "level": 1,
    "category": "reduction",
    "dtypes": ["bfloat16", "float16", "float32"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-3}, "float16": {"atol": 1e-2, "rtol": 1e-3},
                  "float32": {"atol": 1e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"M": 33, "N": 100},
        "ragged": {"M": 1001, "N": 1531},
        "large": {"M": 16384, "N": 4096},
    },
    "baseline_notes": "Two stages: grid (128-column block, 32 row splits), each program sums its [rows, 128] "
                      "slab in [32, 128] fp32 tiles into a partial row; one more launch adds the 32 partials; "
                      "no atomics; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """grad_output [M, N] of standard normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(s["M"], s["N"], generator=g).to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(dy: torch.Tensor) -> torch.Tensor:
    return dy.double().sum(dim=0).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["M"] * s["N"]
    return {"bytes": n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 4 * s["N"], "flops": n}
