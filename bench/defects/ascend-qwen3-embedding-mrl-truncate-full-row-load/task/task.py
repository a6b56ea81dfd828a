"""Matryoshka (MRL) truncation plus L2 normalisation of pooled sentence embeddings.

As sentence-transformers' truncate_dim followed by normalize (Qwen3-Embedding / GTE MRL models):
out = F.normalize(emb[:, :dim].float(), dim=-1) in the embedding dtype, from the full-width pooled
embeddings emb [N, H].
"""
import torch

META = {
    "name": "mrl_truncate_l2_normalize",
    "level": 2,
    "category": "norm",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 1e-3, "rtol": 1e-2},
                  "float16": {"atol": 1e-4, "rtol": 2e-3}},
    "sizes": {
        "small": {"N": 40, "H": 128, "dim": 32},
        "ragged": {"N": 77, "H": 200, "dim": 72},
        "large": {"N": 1048576, "H": 1024, "dim": 256},
    },
    "baseline_notes": "Persistent grid of 40 programs (the vector cores) looping over row blocks of 8192 // next_pow2(dim) rows; each "
                      "block loads only the first dim columns of its rows as a [rows, next_pow2(dim)] tile, sums the "
                      "squares in fp32, divides by max(norm, 1e-12) and stores [rows, dim] in the input dtype.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """emb [N, H] pooled embeddings (unnormalised, a few large outlier channels), dim (int)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    emb = torch.randn(s["N"], s["H"], generator=g, dtype=dt)
    emb[:, :: max(1, s["H"] // 8)] *= 8
    return emb.to(device), s["dim"]


def reference(emb: torch.Tensor, dim: int) -> torch.Tensor:
    return torch.nn.functional.normalize(emb[:, :dim].float(), p=2.0, dim=-1, eps=1e-12).to(emb.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["N"] * s["dim"] * item, "flops": 3 * s["N"] * s["dim"]}
