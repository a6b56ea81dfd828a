"""8-node brick resisting force (OpenSees stdBrick::getResistingForce): P_e = sum_q B_q^T sigma_q detJ w_q."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20
_BLOCK_E = 256


@triton.jit
def _brick_gauss_point_force(sig, bt, force, n_el, q, stride_sq, stride_sc, stride_bq, stride_f,
                             BLOCK_E: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    dof = tl.arange(0, 32)    # 24 element dofs: 3 * node + direction
    comp = tl.arange(0, 16)   # 6 Voigt stress components (K padded to the dot minimum of 16)
    bmask = (dof[:, None] < 24) & (comp[None, :] < 6)
    bq = tl.load(bt + q * stride_bq + dof[:, None] * 6 + comp[None, :], mask=bmask, other=0.0)
    for blk in range(pid, tl.cdiv(n_el, BLOCK_E), nprog):
        el = blk * BLOCK_E + tl.arange(0, BLOCK_E)
        emask = el < n_el
        smask = (comp[:, None] < 6) & emask[None, :]
        fmask = (dof[:, None] < 24) & emask[None, :]
        acc = tl.load(force + dof[:, None] * stride_f + el[None, :], mask=fmask, other=0.0)
        s = tl.load(sig + q * stride_sq + comp[:, None] * stride_sc + el[None, :], mask=smask, other=0.0)
        acc += tl.dot(bq, s)
        tl.store(force + dof[:, None] * stride_f + el[None, :], acc, mask=fmask)


def run(sig: torch.Tensor, bt: torch.Tensor) -> torch.Tensor:
    n_gauss, _, n_el = sig.shape
    force = torch.zeros((24, n_el), device=sig.device, dtype=sig.dtype)
    grid = (min(_AI_CORES, triton.cdiv(n_el, _BLOCK_E)),)
    # as in the element's C++: for each integration point, P += B^T sigma dV
    for q in range(n_gauss):
        _brick_gauss_point_force[grid](sig, bt, force, n_el, q, sig.stride(0), sig.stride(1), bt.stride(0),
                                       force.stride(0), BLOCK_E=_BLOCK_E)
    return force
