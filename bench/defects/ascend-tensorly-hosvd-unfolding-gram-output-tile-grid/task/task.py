"""Gram matrix of the mode-0 unfolding, the HOSVD / Tucker-init step (TensorLy tucker(init="svd"), partial_svd).

The HOSVD takes the leading left singular vectors of each unfolding X_(n). TensorLy's SVD for a fat
unfolding (I_n rows, prod(other dims) columns) diagonalises the small Gram matrix instead:
    G = X_(0) @ X_(0)^T,    G[a, b] = sum_{j,k} X[a, j, k] * X[b, j, k]
and U_0 = the top eigenvectors of G (eigh of an I x I matrix, outside this kernel). X [I, J, K] is
C-contiguous, so X_(0) is the [I, J*K] row-major view of X. Returns G [I, I] in the dtype of X.
"""
import torch

META = {
    "name": "hosvd_unfolding_gram",
    "level": 2,
    "category": "tensor-decomposition",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"I": 24, "J": 8, "K": 16},
        "ragged": {"I": 37, "J": 9, "K": 23},
        "large": {"I": 256, "J": 256, "K": 256},
    },
    "baseline_notes": "[128 x 128] output tiles of G computed with fp32 tl.dot over BK = 64 column chunks of the "
                      "unfolding; the J*K contraction is split across programs so that tiles x splits = 20 "
                      "(the A2's cube cores), each program adding its partial tile into a zeroed G with one "
                      "tl.atomic_add; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """X [I, J, K]: a multilinear-rank (8, 8, 8) Tucker signal plus noise, z-scored."""
    s = META["sizes"][size]
    I, J, K = s["I"], s["J"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    core = torch.randn(8, 8, 8, generator=g)
    U = [torch.linalg.qr(torch.randn(n, 8, generator=g))[0] for n in (I, J, K)]
    X = torch.einsum("abc,ia,jb,kc->ijk", core, *U)
    X = X / X.std() + 0.2 * torch.randn(I, J, K, generator=g)
    return (X.to(dt).to(device),)


def reference(X: torch.Tensor) -> torch.Tensor:
    Xu = X.double().reshape(X.shape[0], -1)
    return (Xu @ Xu.T).to(X.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    I, N = s["I"], s["J"] * s["K"]
    return {"bytes": 4 * (I * N + I * I), "flops": 2 * I * I * N}
