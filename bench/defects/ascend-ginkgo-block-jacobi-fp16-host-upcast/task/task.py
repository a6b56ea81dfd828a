"""Apply of an adaptive-precision block-Jacobi preconditioner (Ginkgo preconditioner::Jacobi with
storage_optimization): z = blockdiag(D_1^-1, ..., D_nb^-1) r.

The inverted diagonal blocks are computed once at setup and stored in reduced precision (here fp16:
the blocks of a well-conditioned operator lose nothing the Krylov solver can see); the working vectors
are fp32. Every apply reads each stored block once, widens it to the working precision and multiplies it
with its slice of r:
    z[b*bs + a] = sum_c float(dinv[b, a, c]) * r[b*bs + c]
The model problem is a DG discretisation with bs unknowns per element (16 for Q3 on quadrilaterals),
one block per element.
"""
import torch

META = {
    "name": "block_jacobi_apply_fp16_blocks",
    "level": 2,
    "category": "sparse-linear-algebra",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"nb": 6, "bs": 16},
        "ragged": {"nb": 37, "bs": 12},
        "large": {"nb": 262144, "bs": 16},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over groups of 32 blocks; each group is a "
                      "[32, BS, BS] fp16 tile (BS = next_power_of_2(bs)) widened to fp32 in the kernel, "
                      "multiplied with the [32, 1, BS] slice of r and summed along the contiguous last axis; "
                      "one store of [32, BS] per group; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dinv [nb, bs, bs] fp16 (inverted diagonal blocks), r [nb * bs] in the working dtype."""
    s = META["sizes"][size]
    nb, bs = s["nb"], s["bs"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    blocks = 0.3 * torch.randn(nb, bs, bs, generator=g) / bs ** 0.5
    blocks += torch.diag_embed(1.5 + torch.rand(nb, bs, generator=g))
    dinv = torch.linalg.inv(blocks).to(torch.float16).contiguous()
    r = torch.randn(nb * bs, generator=g)
    return dinv.to(device), r.to(dt).to(device)


def reference(dinv: torch.Tensor, r: torch.Tensor) -> torch.Tensor:
    nb, bs, _ = dinv.shape
    z = torch.bmm(dinv.double(), r.double().view(nb, bs, 1))
    return z.view(nb * bs).to(r.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nb, bs = s["nb"], s["bs"]
    return {"bytes": 2 * nb * bs * bs + 8 * nb * bs, "flops": 2 * nb * bs * bs}
