"""FiBiNET bilinear feature interaction, "field-each" type (FiBiNET, Huang et al. 2019; DeepCTR
BilinearInteraction / FuxiCTR BilinearInteractionV2 with bilinear_type="field_each").

Every field i has its own square matrix W_i; each unordered field pair (i < j) yields
p_ij = (v_i W_i) * v_j, emitted in itertools.combinations order: out[b, pair(i, j), :].
"""
import itertools

import torch

META = {
    "name": "fibinet_bilinear_field_each",
    "level": 2,
    "category": "recommendation",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 6, "F": 5, "D": 16},
        "ragged": {"B": 37, "F": 7, "D": 32},
        "large": {"B": 8192, "F": 24, "D": 64},
    },
    "baseline_notes": "Grid = 20 programs (AI cores) looping over blocks of 32 samples; per field i one "
                      "tl.dot of the [32, D] embedding tile with W_i (fp32 accumulate), then the "
                      "elementwise products with every later field streamed out in bf16.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """emb [B, F, D] (field embeddings after SENET or raw), w [F, D, D] per-field bilinear weights."""
    s = META["sizes"][size]
    B, F, D = s["B"], s["F"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    emb = torch.randn(B, F, D, generator=g) * 0.5
    w = torch.randn(F, D, D, generator=g) / D ** 0.5
    return emb.to(dt).to(device), w.to(dt).to(device)


def reference(emb: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    F = emb.shape[1]
    vw = torch.einsum("bfd,fde->bfe", emb.double(), w.double())
    pairs = list(itertools.combinations(range(F), 2))
    ii = torch.tensor([p[0] for p in pairs], device=emb.device)
    jj = torch.tensor([p[1] for p in pairs], device=emb.device)
    return (vw[:, ii, :] * emb.double()[:, jj, :]).to(emb.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, F, D = s["B"], s["F"], s["D"]
    P = F * (F - 1) // 2
    return {"bytes": 2 * (B * F * D + F * D * D + B * P * D), "flops": 2 * B * F * D * D + B * P * D}
