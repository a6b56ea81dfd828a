"""Mode-0 MTTKRP of CP-ALS on a dense 3-way tensor (TensorLy parafac / unfolding_dot_khatri_rao).

Each ALS sweep of CP decomposition updates factor A of X [I, J, K] from
    M = unfold(X, 0) @ khatri_rao(B, C)        i.e.  M[i, r] = sum_{j,k} X[i, j, k] * B[j, r] * C[k, r]
(the matricised-tensor times Khatri-Rao product, MTTKRP), followed by A = M @ pinv((B^T B) * (C^T C)),
which is a tiny R x R solve outside this kernel. Returns M [I, R] in the dtype of X.
"""
import torch

META = {
    "name": "cp_als_mttkrp_mode0",
    "level": 2,
    "category": "tensor-decomposition",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"I": 5, "J": 24, "K": 40, "R": 6},
        "ragged": {"I": 7, "J": 37, "K": 53, "R": 10},
        "large": {"I": 256, "J": 256, "K": 256, "R": 32},
    },
    "baseline_notes": "20 programs (the A2's cube cores) loop over the rows i of the mode-0 unfolding; per row "
                      "the slab X[i] [J, K] is contracted with C on the cube unit in [128 x 128] @ [128 x R] "
                      "tl.dot tiles (two-step MTTKRP: T = X[i] @ C), then T * B is reduced over j on the vector "
                      "unit and the R-vector stored once; fp32 throughout, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """X [I, J, K] (a rank-R signal plus noise), factors B [J, R] and C [K, R] with unit-norm columns."""
    s = META["sizes"][size]
    I, J, K, R = s["I"], s["J"], s["K"], s["R"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    a0, b0, c0 = (torch.randn(n, R, generator=g) for n in (I, J, K))
    X = torch.einsum("ir,jr,kr->ijk", a0, b0, c0) / R + 0.1 * torch.randn(I, J, K, generator=g)
    B = torch.randn(J, R, generator=g)
    C = torch.randn(K, R, generator=g)
    B = B / B.norm(dim=0, keepdim=True)
    C = C / C.norm(dim=0, keepdim=True)
    return X.to(dt).to(device), B.to(dt).to(device), C.to(dt).to(device)


def reference(X: torch.Tensor, B: torch.Tensor, C: torch.Tensor) -> torch.Tensor:
    M = torch.einsum("ijk,jr,kr->ir", X.double(), B.double(), C.double())
    return M.to(X.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    I, J, K, R = s["I"], s["J"], s["K"], s["R"]
    return {"bytes": 4 * (I * J * K + (J + K) * R + I * R), "flops": 2 * I * J * K * R + 2 * I * J * R}
