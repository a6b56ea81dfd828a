"""RTE shortwave two-stream (Zdunkowski PIFM) coefficients per column, layer and g-point."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_KMU_GUARD = 1e-3


@triton.jit
def _sw_two_stream_kernel(tau_ptr, ssa_ptr, g_ptr, mu0_ptr,
                          rdif_ptr, tdif_ptr, rdir_ptr, tdir_ptr, tnoscat_ptr,
                          ncol, K, GUARD: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    kblocks = tl.cdiv(K, BLOCK)
    for item in range(pid, ncol * kblocks, nprog):
        col = item // kblocks                # one column per work item: mu0 is a scalar
        kb = item - col * kblocks
        kk = kb * BLOCK + tl.arange(0, BLOCK)
        mask = kk < K
        offs = col * K + kk
        mu0 = tl.load(mu0_ptr + col)
        tau = tl.load(tau_ptr + offs, mask=mask, other=0.0)
        w0 = tl.load(ssa_ptr + offs, mask=mask, other=0.0)
        g = tl.load(g_ptr + offs, mask=mask, other=0.0)

        gamma1 = (8.0 - w0 * (5.0 + 3.0 * g)) * 0.25
        gamma2 = 3.0 * (w0 * (1.0 - g)) * 0.25
        gamma3 = (2.0 - 3.0 * mu0 * g) * 0.25
        gamma4 = 1.0 - gamma3
        alpha1 = gamma1 * gamma4 + gamma2 * gamma3
        alpha2 = gamma1 * gamma3 + gamma2 * gamma4
        k = tl.sqrt(tl.maximum((gamma1 - gamma2) * (gamma1 + gamma2), 1e-12))
        e1 = tl.exp(-tau * k)
        e2 = e1 * e1
        rt = 1.0 / (k * (1.0 + e2) + gamma1 * (1.0 - e2))
        rdif = rt * gamma2 * (1.0 - e2)
        tdif = rt * 2.0 * k * e1
        tnoscat = tl.exp(-tau / mu0)

        kmu = k * mu0
        den = 1.0 - kmu * kmu
        den = tl.where(tl.abs(den) >= GUARD, den, tl.where(den < 0.0, -GUARD, GUARD))
        rt2 = w0 * rt / den
        kg3 = k * gamma3
        kg4 = k * gamma4
        rdir = rt2 * ((1.0 - kmu) * (alpha2 + kg3) - (1.0 + kmu) * (alpha2 - kg3) * e2
                      - 2.0 * (kg3 - alpha2 * kmu) * e1 * tnoscat)
        tdir = -rt2 * ((1.0 + kmu) * (alpha1 + kg4) * tnoscat - (1.0 - kmu) * (alpha1 - kg4) * e2 * tnoscat
                       - 2.0 * (kg4 + alpha1 * kmu) * e1)
        rdir = tl.maximum(tl.minimum(rdir, 1.0 - tnoscat), 0.0)
        tdir = tl.maximum(tl.minimum(tdir, 1.0 - tnoscat - rdir), 0.0)

        tl.store(rdif_ptr + offs, rdif, mask=mask)
        tl.store(tdif_ptr + offs, tdif, mask=mask)
        tl.store(rdir_ptr + offs, rdir, mask=mask)
        tl.store(tdir_ptr + offs, tdir, mask=mask)
        tl.store(tnoscat_ptr + offs, tnoscat, mask=mask)


def run(tau: torch.Tensor, ssa: torch.Tensor, g: torch.Tensor, mu0: torch.Tensor) -> tuple:
    ncol, nlay, ngpt = tau.shape
    K = nlay * ngpt
    outs = [torch.empty_like(tau) for _ in range(5)]
    BLOCK = 1024
    grid = (min(_VECTOR_CORES, ncol * triton.cdiv(K, BLOCK)),)
    _sw_two_stream_kernel[grid](tau, ssa, g, mu0, *outs, ncol, K, GUARD=_KMU_GUARD, BLOCK=BLOCK)
    return tuple(outs)
