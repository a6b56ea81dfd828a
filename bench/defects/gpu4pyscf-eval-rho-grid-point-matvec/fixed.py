"""LDA electron density on grid points: rho[g] = sum_{mu,nu} ao[mu,g] dm[mu,nu] ao[nu,g] (GPU4PySCF eval_rho)."""
import torch
import triton
import triton.language as tl

BLOCK_G = 64
BLOCK_NU = 64
BLOCK_MU = 32


@triton.jit
def _eval_rho(ao, dm, rho, nao, ngrids,
              BLOCK_G: tl.constexpr, BLOCK_NU: tl.constexpr, BLOCK_MU: tl.constexpr):
    g = tl.program_id(0) * BLOCK_G + tl.arange(0, BLOCK_G)
    g_ok = g < ngrids
    acc = tl.zeros([BLOCK_G], dtype=tl.float64)
    for nu0 in range(0, nao, BLOCK_NU):
        nu = nu0 + tl.arange(0, BLOCK_NU)
        nu_ok = nu < nao
        c = tl.zeros([BLOCK_NU, BLOCK_G], dtype=tl.float64)
        for mu0 in range(0, nao, BLOCK_MU):
            mu = mu0 + tl.arange(0, BLOCK_MU)
            mu_ok = mu < nao
            d = tl.load(dm + nu[:, None] * nao + mu[None, :], mask=nu_ok[:, None] & mu_ok[None, :], other=0.0)
            a = tl.load(ao + mu[:, None] * ngrids + g[None, :], mask=mu_ok[:, None] & g_ok[None, :], other=0.0)
            c = tl.dot(d, a, c, out_dtype=tl.float64)
        a_nu = tl.load(ao + nu[:, None] * ngrids + g[None, :], mask=nu_ok[:, None] & g_ok[None, :], other=0.0)
        acc += tl.sum(c * a_nu, axis=0)
    tl.store(rho + g, acc, mask=g_ok)


def run(ao: torch.Tensor, dm: torch.Tensor) -> torch.Tensor:
    nao, ngrids = ao.shape
    rho = torch.empty(ngrids, device=ao.device, dtype=ao.dtype)
    _eval_rho[(triton.cdiv(ngrids, BLOCK_G),)](ao, dm, rho, nao, ngrids, BLOCK_G=BLOCK_G, BLOCK_NU=BLOCK_NU,
                                               BLOCK_MU=BLOCK_MU, num_warps=4, num_stages=3)
    return rho
