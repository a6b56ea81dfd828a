"""One power step of the MPS transfer matrix on the left environment (TeNPy TransferMatrix.matvec, as
driven by MPS.correlation_length / the eigsh of the dominant eigenvector).

A is the left-canonical tensor of a uniform (infinite) MPS with legs (vL, p, vR) = [chi, d, chi], so that
sum_{a,s} A[a,s,b] A[a,s,b'] = delta_{bb'}; v is a left environment [chi, chi] (legs vR*, vR). The step is
    v'[b, b'] = sum_{s} sum_{a, a'} A[a, s, b] v[a, a'] A[a', s, b']   (= sum_s A_s^T v A_s),
evaluated as two contractions:  X[a, (s, b')] = sum_{a'} v[a, a'] A[a', (s, b')]   ([chi, chi] @ [chi, d chi])
and v'[b, b'] = sum_{(a, s)} A[(a, s), b] X[(a, s), b']                              ([d chi, chi]^T @ [d chi, chi]).
Real float32 (a real ground state, spin-1 Heisenberg chain: d = 3). Returns v' float32 [chi, chi].
"""
import torch

META = {
    "name": "mps_transfer_matrix_step",
    "level": 2,
    "category": "tensor-networks",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"chi": 32, "d": 3},
        "ragged": {"chi": 24, "d": 3},
        "large": {"chi": 1024, "d": 3},
    },
    "baseline_notes": "One generic strided contraction kernel launched twice (v @ A_flat, then A_flat^T @ X with "
                      "A read through swapped strides); each program owns a 64x128 output tile and accumulates "
                      "tl.dot of 64x32 and 32x128 tiles over K (tf32 tensor cores), 4 warps, 3 stages.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A float32 [chi, d, chi] (left-canonical, from a QR), v float32 [chi, chi] (a Wishart matrix: symmetric positive, trace ~ chi)."""
    s = META["sizes"][size]
    chi, d = s["chi"], s["d"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q, _ = torch.linalg.qr(torch.randn(chi * d, chi, generator=g, dtype=torch.float64))
    a = q.contiguous().reshape(chi, d, chi)
    w = torch.randn(chi, chi, generator=g, dtype=torch.float64)
    v = (w @ w.T) / chi
    return a.to(device=device, dtype=dt).contiguous(), v.to(device=device, dtype=dt).contiguous()


def reference(a: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return torch.einsum("asb,ac,csd->bd", a.double(), v.double(), a.double()).to(a.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    chi, d = s["chi"], s["d"]
    return {"bytes": 4 * (2 * chi * d * chi + 2 * chi * chi), "flops": 4 * d * chi ** 3}
