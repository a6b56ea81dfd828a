"""Pair-representation LayerNorm of a pairformer block (Boltz-1 PairformerLayer / AF3 Algorithm 17).

z [N, N, c_z] in bf16 is normalised over its channels for every token pair (torch.nn.LayerNorm(c_z),
eps 1e-5, fp32 affine parameters, math in fp32, bf16 out), as before each triangle update,
triangle attention and pair transition.
"""
import torch

META = {
    "name": "pair_layernorm",
    "level": 2,
    "category": "norm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"N": 8, "C": 128},
        "ragged": {"N": 11, "C": 96},
        "large": {"N": 768, "C": 128},
    },
    "baseline_notes": "Programs of 32 pair rows each as a [32, next_power_of_2(C)] tile: fp32 mean and variance "
                      "per row, affine, bf16 store; 4 warps, no autotune.",
    "deterministic": True,
}
EPS = 1e-5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """z [N, N, C] with a per-pair offset and scale, weight [C] near 1 and bias [C] near 0 (fp32)."""
    s = META["sizes"][size]
    N, C = s["N"], s["C"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    z = torch.randn(N, N, C, generator=g) * (0.5 + torch.rand(N, N, 1, generator=g)) \
        + 0.5 * torch.randn(N, N, 1, generator=g)
    w = 1 + 0.1 * torch.randn(C, generator=g)
    b = 0.1 * torch.randn(C, generator=g)
    return z.to(dt).to(device), w.to(device), b.to(device)


def reference(z: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    y = torch.nn.functional.layer_norm(z.float(), (z.shape[-1],), w, b, EPS)
    return y.to(z.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = s["N"] * s["N"] * s["C"]
    return {"bytes": 2 * n * item + 8 * s["C"], "flops": 8 * n}
