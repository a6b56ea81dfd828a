"""Density-fitted exchange matrix from the half-transformed 3-index tensor (PySCF df_jk.get_jk / gpu4pyscf get_k).

With Cholesky-decomposed DF integrals L_{P,mn} and occupied orbitals C_{n,i} (scaled by sqrt(occ)),
PySCF first half-transforms rhok[P, i, m] = sum_n L_{P, mn} C_{n, i} and then builds the exchange
matrix as one contraction over the auxiliary and occupied indices together:

    K_mn = sum_P sum_i rhok[P, i, m] rhok[P, i, n]      (vk += rhok^T rhok, per block of P)

i.e. a Gram matrix of the [naux * nocc, nao] matrix rhok. Input rhok fp32 [naux, nocc, nao]
(nao contiguous); output K fp32 [nao, nao] (symmetric). The contraction length naux * nocc is far
larger than nao.
"""
import torch

META = {
    "name": "df_exchange_vk",
    "level": 2,
    "category": "quantum-chemistry",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 3e-3, "rtol": 3e-3}},
    "sizes": {
        "small": {"naux": 12, "nocc": 4, "nao": 40},
        "ragged": {"naux": 13, "nocc": 5, "nao": 77},
        "large": {"naux": 1792, "nocc": 80, "nao": 512},
    },
    "baseline_notes": "128x128 output tiles of K with BK=32 steps of tl.dot (default tf32 input precision, "
                      "fp32 accumulation), the naux*nocc contraction split into 8 slices so that 4x4 tiles x 8 "
                      "slices = 128 programs fill the GPU; each slice stores its partial tile to an fp32 "
                      "workspace and a second small kernel sums the 8 partials. 8 warps, 3 stages, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rhok [naux, nocc, nao]: per-AO scales (core/diffuse functions differ) times Gaussian noise."""
    s = META["sizes"][size]
    naux, nocc, nao = s["naux"], s["nocc"], s["nao"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    scale = 0.2 + 1.3 * torch.rand(nao, generator=g)
    rhok = torch.randn(naux, nocc, nao, generator=g) * scale / (naux * nocc) ** 0.5
    return (rhok.to(device=device, dtype=dt),)


def reference(rhok: torch.Tensor) -> torch.Tensor:
    b = rhok.double().reshape(-1, rhok.shape[-1])
    return (b.T @ b).to(rhok.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    r = s["naux"] * s["nocc"]
    return {"bytes": 4 * (r * s["nao"] + s["nao"] ** 2), "flops": 2 * r * s["nao"] ** 2}
