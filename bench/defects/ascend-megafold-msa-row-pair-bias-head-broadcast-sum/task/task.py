"""Pair bias of MSA row attention (AlphaFold2 MSARowAttentionWithPairBias; MindSPONGE MEGA-Fold msa_row_attention_with_pair_bias).

The pair representation z [N, N, c_z] is layer-normalised over c_z (feat_2d_norm, eps 1e-5) and
projected to one bias per head without a bias term (feat_2d_weights [num_head, c_z]); the result
is laid out head-major, bias[h, q, k] = sum_c LN(z)[q, k, c] * w[h, c], as the attention adds it.
"""
import torch

META = {
    "name": "msa_row_pair_bias",
    "level": 2,
    "category": "norm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"N": 12, "C": 128, "H": 8},
        "ragged": {"N": 23, "C": 128, "H": 8},
        "large": {"N": 1024, "C": 128, "H": 8},
    },
    "baseline_notes": "20 programs (AI cores) loop over tiles of 64 flattened pairs: fp32 layer norm of the "
                      "[64, 128] pair tile on the vector unit, then the head projection as tl.dot of the "
                      "weight (heads padded to 16) with the transposed fp16 tile, stored head-major.",
    "deterministic": True,
}
EPS = 1e-5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pair z [N, N, C], layer-norm gamma/beta [C] fp32, head weights w [H, C]."""
    s = META["sizes"][size]
    N, C, H = s["N"], s["C"], s["H"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    z = 2.0 * torch.randn(N, N, C, generator=g) + 0.5
    gamma = 1.0 + 0.1 * torch.randn(C, generator=g)
    beta = 0.1 * torch.randn(C, generator=g)
    w = torch.randn(H, C, generator=g) / C ** 0.5
    return z.to(dt).to(device), gamma.to(device), beta.to(device), w.to(dt).to(device)


def reference(z: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    zn = torch.nn.functional.layer_norm(z.float(), (z.shape[-1],), gamma.float(), beta.float(), EPS)
    return torch.einsum("qkc,hc->hqk", zn, w.float()).to(z.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N, C, H = s["N"], s["C"], s["H"]
    return {"bytes": 2 * N * N * (C + H) + 8 * C + 2 * H * C, "flops": N * N * (8 * C + 2 * H * C)}
