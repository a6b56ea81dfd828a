"""Binned dot-product spectral library scoring (OpenMS SpectraSTSimilarityScore / BinnedSpectralContrastAngle).

Query MS/MS spectra and library spectra are both preprocessed the SpectraST way: peaks are binned into
D m/z bins of ~1 Th, intensities square-root scaled, and each binned vector normalised to unit L2 norm
(stored fp16, D padded to a multiple of 64). A query batch is then scored against a block of library
candidates (open search: the precursor window covers the whole block):
    score[q, l] = sum_d query[q, d] * library[l, d]      (= cos of the spectral contrast angle)
accumulated in fp32. Returns score [Q, L] fp32; the per-query top-k over the scores follows outside.
"""
import torch

META = {
    "name": "binned_spectral_dot",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"Q": 24, "L": 80, "D": 128},
        "ragged": {"Q": 37, "L": 151, "D": 200},
        "large": {"Q": 2048, "L": 16384, "D": 2048},
    },
    "baseline_notes": "40 programs loop over 128 x 128 score tiles; per tile a K loop over 64-bin slabs loads "
                      "the query slab [128, 64] and the library slab [128, 64] (both row-major, contiguous "
                      "bins) and accumulates tl.dot(query, trans(library)) in fp32 on the cube unit; one "
                      "fp32 store per tile. No autotune.",
    "deterministic": True,
}


def _binned(n: int, D: int, g: torch.Generator) -> torch.Tensor:
    # ~80-150 fragment peaks per spectrum land in distinct bins; sqrt-scaled and L2-normalised
    dense = torch.zeros(n, D)
    npk = max(1, min(D // 2, 120))
    idx = torch.randint(0, D, (n, npk), generator=g)
    val = torch.rand(n, npk, generator=g).pow(4) * 1.0e4
    dense.scatter_add_(1, idx, val)
    dense = dense.sqrt()
    return dense / dense.norm(dim=1, keepdim=True).clamp_min(1e-12)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """query [Q, D] fp16, library [L, D] fp16 (unit-norm binned spectra)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lib = _binned(s["L"], s["D"], g)
    # some queries are noisy copies of library entries, the rest unrelated spectra
    q = _binned(s["Q"], s["D"], g)
    hit = torch.randint(0, s["L"], (s["Q"],), generator=g)
    mix = (torch.rand(s["Q"], 1, generator=g) < 0.5).float()
    q = mix * (lib[hit] + 0.3 * q) + (1 - mix) * q
    q = q / q.norm(dim=1, keepdim=True).clamp_min(1e-12)
    return q.to(dt).to(device), lib.to(dt).to(device)


def reference(query: torch.Tensor, library: torch.Tensor) -> torch.Tensor:
    return (query.double() @ library.double().T).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    Q, L, D = s["Q"], s["L"], s["D"]
    return {"bytes": 2 * (Q + L) * D + 4 * Q * L, "flops": 2 * Q * L * D}
