"""Electron density on DFT grid points from AO values and the density matrix (GPU4PySCF numint.eval_rho, LDA).

    rho[g] = sum_{mu, nu} ao[mu, g] * dm[mu, nu] * ao[nu, g]

ao [nao, ngrids] fp64 holds the basis functions evaluated on one block of grid points in GPU4PySCF's
layout (grid index contiguous); dm [nao, nao] fp64 is the symmetric (real, closed-shell) density
matrix 2 C_occ C_occ^T. GPU4PySCF computes c0 = dm @ ao with cuBLAS and then the column dot
rho[g] = sum_mu ao[mu, g] * c0[mu, g] (contract_rho); a fused kernel does both per tile of points.
Output: rho [ngrids] fp64.
"""
import math

import torch

META = {
    "name": "eval_rho_lda",
    "level": 2,
    "category": "quantum-chemistry",
    "dtypes": ["float64"],
    "tolerance": {"float64": {"atol": 1e-9, "rtol": 1e-8}},
    "sizes": {
        "small": {"nao": 24, "nocc": 5, "ngrids": 96},
        "ragged": {"nao": 37, "nocc": 9, "ngrids": 203},
        # a 64-atom organic molecule (28 C/N/O + 36 H) in def2-SVP: 28*14 + 36*5 = 572 AOs, 124 occupied
        # orbitals; one 65,536-point block of the numint grid loop
        "large": {"nao": 572, "nocc": 124, "ngrids": 65536},
    },
    "baseline_notes": "Programs of 64 grid points: for each block of 64 AOs nu, c = dm[nu, :] @ ao[:, g] as "
                      "tl.dot over 32-wide mu tiles (fp64), then rho += sum_nu c * ao[nu, g]; one store per "
                      "program; 4 warps, num_stages 3, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ao [nao, ngrids] (Gaussian-type functions around random centres on points near them), dm [nao, nao]."""
    s = META["sizes"][size]
    nao, nocc, ngrids = s["nao"], s["nocc"], s["ngrids"]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator().manual_seed(seed)
    extent = 2.0 * nao ** (1.0 / 3.0)
    centres = (torch.rand(nao, 3, generator=g, dtype=torch.float64) - 0.5) * extent
    alpha = 0.15 * 10.0 ** (2.0 * torch.rand(nao, generator=g, dtype=torch.float64))
    lmix = torch.randn(nao, 3, generator=g, dtype=torch.float64) * (torch.rand(nao, 1, generator=g) < 0.6)
    points = (torch.rand(ngrids, 3, generator=g, dtype=torch.float64) - 0.5) * (extent + 2.0)
    ao = torch.empty(nao, ngrids, dtype=torch.float64)
    for start in range(0, ngrids, 8192):
        r = points[None, start:start + 8192, :] - centres[:, None, :]          # [nao, blk, 3]
        radial = torch.exp(-alpha[:, None] * (r * r).sum(-1))
        ao[:, start:start + 8192] = radial * (1.0 + (r * lmix[:, None, :]).sum(-1))
    c_occ = torch.randn(nao, nocc, generator=g, dtype=torch.float64) / math.sqrt(nao)
    dm = 2.0 * c_occ @ c_occ.T
    return ao.to(device=device, dtype=dt), dm.to(device=device, dtype=dt)


def reference(ao: torch.Tensor, dm: torch.Tensor) -> torch.Tensor:
    a = ao.double()
    return ((dm.double() @ a) * a).sum(dim=0).to(ao.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nao, ngrids = s["nao"], s["ngrids"]
    return {"bytes": 8 * (nao * ngrids + nao * nao + ngrids), "flops": 2 * nao * nao * ngrids + 2 * nao * ngrids}
