"""Triangle multiplicative update, outgoing edges (AlphaFold2 Algorithm 11, OpenFold TriangleMultiplicationOutgoing).

The core product after the gated projections: with a and b laid out channel-first ([C, N, N], as
OpenFold's permute_final_dims(a, (2, 0, 1)) before its torch.matmul), every channel c multiplies
its two N x N edge maps: out[c, i, j] = sum_k a[c, i, k] * b[c, j, k]. bf16 in, fp32 accumulation,
bf16 out (the layer_norm_out that follows reads it in bf16).
"""
import torch

META = {
    "name": "tri_mul_outgoing_product",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"C": 4, "N": 40},
        "ragged": {"C": 3, "N": 77},
        "large": {"C": 128, "N": 384},
    },
    "baseline_notes": "Grid (i tiles, j tiles, channel): 128x128 output tile per program, K loop of 32 over the "
                      "shared residue k, bf16 tiles into tl.dot (b tile transposed on chip), fp32 accumulator, "
                      "bf16 store; 8 warps, 3 stages, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """a [C, N, N], b [C, N, N]: sigmoid-gated projections of the pair representation, channel-first."""
    s = META["sizes"][size]
    C, N = s["C"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    a = torch.randn(C, N, N, generator=g) * torch.sigmoid(torch.randn(C, N, N, generator=g))
    b = torch.randn(C, N, N, generator=g) * torch.sigmoid(torch.randn(C, N, N, generator=g))
    return a.to(dt).to(device), b.to(dt).to(device)


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.matmul(a.float(), b.float().transpose(-1, -2)).to(a.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    C, N = s["C"], s["N"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 3 * C * N * N * item, "flops": 2 * C * N * N * N}
