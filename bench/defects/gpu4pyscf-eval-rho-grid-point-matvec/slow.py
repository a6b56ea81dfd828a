"""LDA electron density on grid points: rho[g] = sum_{mu,nu} ao[mu,g] dm[mu,nu] ao[nu,g] (GPU4PySCF eval_rho)."""
import torch
import triton
import triton.language as tl

BLOCK_NU = 64
BLOCK_MU = 32


@triton.jit
def _eval_rho(ao, dm, rho, nao, ngrids,
              BLOCK_NU: tl.constexpr, BLOCK_MU: tl.constexpr):
    g = tl.program_id(0)
    acc = tl.zeros([BLOCK_NU], dtype=tl.float64)
    for nu0 in range(0, nao, BLOCK_NU):
        nu = nu0 + tl.arange(0, BLOCK_NU)
        nu_ok = nu < nao
        c = tl.zeros([BLOCK_NU], dtype=tl.float64)
        for mu0 in range(0, nao, BLOCK_MU):
            mu = mu0 + tl.arange(0, BLOCK_MU)
            mu_ok = mu < nao
            d = tl.load(dm + nu[:, None] * nao + mu[None, :], mask=nu_ok[:, None] & mu_ok[None, :], other=0.0)
            a = tl.load(ao + mu * ngrids + g, mask=mu_ok, other=0.0)
            c += tl.sum(d * a[None, :], axis=1)
        a_nu = tl.load(ao + nu * ngrids + g, mask=nu_ok, other=0.0)
        acc += c * a_nu
    tl.store(rho + g, tl.sum(acc, axis=0))


def run(ao: torch.Tensor, dm: torch.Tensor) -> torch.Tensor:
    nao, ngrids = ao.shape
    rho = torch.empty(ngrids, device=ao.device, dtype=ao.dtype)
    # one program per grid point, as one CUDA thread per point would be
    _eval_rho[(ngrids,)](ao, dm, rho, nao, ngrids, BLOCK_NU=BLOCK_NU, BLOCK_MU=BLOCK_MU, num_warps=4)
    return rho
