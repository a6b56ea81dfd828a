"""Wilson-clover term applied to a spinor field (QUDA ApplyClover / the clover part of the clover Dslash).

The clover matrix A(x) = 1 + (c_sw kappa / 2) sigma_{mu nu} F_{mu nu}(x) is block-diagonal in the chiral
(DeGrand-Rossi) spin basis: at every site two Hermitian 6x6 blocks, one per chirality, acting on the
6 (2 spin x 3 colour) complex components of that chirality (spins 0,1 and spins 2,3). Each block is stored
packed as 36 reals, QUDA's clover layout: the 6 real diagonal entries, then the 15 complex entries of the
strict lower triangle row by row, (1,0), (2,0), (2,1), (3,0), ..., (5,4), real and imaginary interleaved;
the upper triangle is their conjugate. Fields are site-major: clover [V, 2, 36], psi [V, 4, 3, 2]
(spin, colour, re/im). Returns out = A psi with psi's shape, fp32.
"""
import torch

META = {
    "name": "clover_apply",
    "level": 1,
    "category": "lattice-qcd",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"X": 4, "Y": 4, "Z": 2, "T": 4},
        "ragged": {"X": 6, "Y": 5, "Z": 3, "T": 3},
        "large": {"X": 32, "Y": 32, "Z": 32, "T": 32},
    },
    "baseline_notes": "1-D grid over half-site rows (site, chirality), 32 rows = 16 sites per program: the packed "
                      "block is gathered into an [rows, 8, 8] Hermitian tile (6x6 padded, upper triangle "
                      "conjugated from the lower), the 6 complex spinor components broadcast along the row, "
                      "complex products summed along the last axis, re/im stored interleaved. 4 warps, no "
                      "autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """clover [V, 2, 36] (packed Hermitian blocks near the identity), psi [V, 4, 3, 2] (Gaussian source)."""
    s = META["sizes"][size]
    v = s["X"] * s["Y"] * s["Z"] * s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    clover = torch.empty(v, 2, 36)
    clover[:, :, :6] = 1.0 + 0.15 * torch.randn(v, 2, 6, generator=g)
    clover[:, :, 6:] = 0.08 * torch.randn(v, 2, 30, generator=g)
    psi = torch.randn(v, 4, 3, 2, generator=g)
    return clover.to(dt).to(device), psi.to(dt).to(device)


def unpack_clover(clover: torch.Tensor) -> torch.Tensor:
    """[V, 2, 36] packed reals -> [V, 2, 6, 6] complex128 Hermitian blocks."""
    c = clover.double()
    v = c.shape[0]
    full = torch.zeros(v, 2, 6, 6, dtype=torch.complex128, device=c.device)
    idx = torch.arange(6, device=c.device)
    full[:, :, idx, idx] = c[:, :, :6].to(torch.complex128)
    lower = torch.complex(c[:, :, 6::2], c[:, :, 7::2])           # [V, 2, 15]
    rows, cols = torch.tril_indices(6, 6, offset=-1, device=c.device)
    full[:, :, rows, cols] = lower
    full[:, :, cols, rows] = lower.conj()
    return full


def reference(clover: torch.Tensor, psi: torch.Tensor) -> torch.Tensor:
    a = unpack_clover(clover)
    p = torch.view_as_complex(psi.double().contiguous()).reshape(-1, 2, 6)
    out = torch.einsum("vcab,vcb->vca", a, p)
    return torch.view_as_real(out.reshape(-1, 4, 3)).contiguous().to(psi.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    v = s["X"] * s["Y"] * s["Z"] * s["T"]
    return {"bytes": v * (72 + 24 + 24) * 4, "flops": v * 2 * 36 * 8}
