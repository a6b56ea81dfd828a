"""Khatri-Rao product of two factor matrices (Tensor Toolbox khatrirao, TensorLy tenalg.khatri_rao).

The column-wise Kronecker product of A [I, R] and B [J, R]:
    P[:, r] = kron(A[:, r], B[:, r]),   i.e.  P[i * J + j, r] = A[i, r] * B[j, r],   P [I * J, R]
(B's row index varies fastest, the Tensor Toolbox / TensorLy ordering). It is the right-hand matrix of
the dense MTTKRP  X_(n) @ khatrirao(...)  in CP-ALS (Tensor Toolbox cp_als -> mttkrp). Returns P in
the dtype of A.
"""
import torch

META = {
    "name": "khatri_rao_product",
    "level": 1,
    "category": "tensor-decomposition",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-6}},
    "sizes": {
        "small": {"I": 6, "J": 40, "R": 8},
        "ragged": {"I": 7, "J": 53, "R": 10},
        "large": {"I": 1024, "J": 1024, "R": 32},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over the rows i of A; per row they load A[i, :] "
                      "once and stream B in [256, R] row tiles, storing A[i, :] * B[j0:j0+256, :] as one "
                      "contiguous [256, R] tile of P (rows i*J + j); no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Factor matrices A [I, R] and B [J, R] with unit-norm columns (as after a CP-ALS normalisation)."""
    s = META["sizes"][size]
    I, J, R = s["I"], s["J"], s["R"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    A = torch.randn(I, R, generator=g)
    B = torch.randn(J, R, generator=g)
    A = A / A.norm(dim=0, keepdim=True)
    B = B / B.norm(dim=0, keepdim=True)
    return A.to(dt).to(device), B.to(dt).to(device)


def reference(A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    P = A.double()[:, None, :] * B.double()[None, :, :]
    return P.reshape(-1, A.shape[1]).to(A.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    I, J, R = s["I"], s["J"], s["R"]
    return {"bytes": 4 * (I * J * R + (I + J) * R), "flops": I * J * R}
