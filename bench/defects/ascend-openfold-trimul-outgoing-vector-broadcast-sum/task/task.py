"""OpenFold TriangleMultiplicationOutgoing, the contraction of _combine_projections.

a, b: the gated, masked projections of the pair representation, already channel-first
[C, N, N] (permute_final_dims(a, (2, 0, 1))); p[c, i, j] = sum_k a[c, i, k] * b[c, j, k],
i.e. one [N, N] x [N, N]^T matrix product per hidden channel, fp32 out (the layer norm that
follows runs in fp32).
"""
import torch

META = {
    "name": "openfold_trimul_outgoing_combine",
    "level": 2,
    "category": "gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"C": 2, "N": 24},
        "ragged": {"C": 3, "N": 37},
        "large": {"C": 128, "N": 384},
    },
    "baseline_notes": "Persistent grid of min(tiles, 20) programs over (channel, 128-row, 128-col) output tiles; "
                      "K loop of 64 with bf16 tiles into tl.dot(a, trans(b)) and an fp32 accumulator; masked "
                      "edges; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """a, b [C, N, N]: sigmoid-gated projections (values of order 0.1-1), zero rows for masked residues."""
    s = META["sizes"][size]
    C, N = s["C"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    mask = (torch.rand(N, generator=g) > 0.05).float()
    a = torch.randn(C, N, N, generator=g) * torch.sigmoid(torch.randn(C, N, N, generator=g)) * mask[None, :, None]
    b = torch.randn(C, N, N, generator=g) * torch.sigmoid(torch.randn(C, N, N, generator=g)) * mask[None, :, None]
    return (a.to(dt).to(device), b.to(dt).to(device))


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.matmul(a.double(), b.double().transpose(-1, -2)).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    C, N = s["C"], s["N"]
    return {"bytes": 2 * 2 * C * N * N + 4 * C * N * N, "flops": 2 * C * N ** 3}
