"""Per-term Pauli-string expectation values <psi|P_k|psi> on a state vector (x-mask / z-mask form)."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _pauli_term_expval(psi, x_masks, z_masks, n_ys, coeffs, out, k, n_amp, BLOCK: tl.constexpr):
    x_mask = tl.load(x_masks + k)
    z_mask = tl.load(z_masks + k)
    n_y = tl.load(n_ys + k) & 3
    part = tl.arange(0, 2)
    acc_re = tl.zeros([BLOCK], dtype=tl.float32)
    acc_im = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_amp, BLOCK):
        x = start + tl.arange(0, BLOCK)
        ok = x < n_amp
        y = x ^ x_mask
        a = tl.load(psi + 2 * x[:, None] + part[None, :], mask=ok[:, None], other=0.0)
        b = tl.load(psi + 2 * y[:, None] + part[None, :], mask=ok[:, None], other=0.0)
        a_re, a_im = tl.split(a)
        b_re, b_im = tl.split(b)
        # (-1)^popcount(x & z_mask) by folding the bits onto bit 0
        p = x & z_mask
        p = p ^ (p >> 16)
        p = p ^ (p >> 8)
        p = p ^ (p >> 4)
        p = p ^ (p >> 2)
        p = p ^ (p >> 1)
        sign = 1.0 - 2.0 * (p & 1).to(tl.float32)
        # conj(psi[x ^ x_mask]) * psi[x]
        acc_re += sign * (b_re * a_re + b_im * a_im)
        acc_im += sign * (b_re * a_im - b_im * a_re)
    s_re = tl.sum(acc_re, axis=0)
    s_im = tl.sum(acc_im, axis=0)
    # Re(i^n_y * (s_re + i s_im))
    val = tl.where(n_y == 0, s_re, tl.where(n_y == 1, -s_im, tl.where(n_y == 2, -s_re, s_im)))
    tl.store(out + k, tl.load(coeffs + k) * val)


def run(psi: torch.Tensor, x_mask: torch.Tensor, z_mask: torch.Tensor, n_y: torch.Tensor,
        coeff: torch.Tensor) -> torch.Tensor:
    n_amp = psi.shape[0]
    n_terms = x_mask.shape[0]
    out = torch.empty(n_terms, device=psi.device, dtype=torch.float32)
    for k in range(n_terms):
        _pauli_term_expval[(1,)](psi, x_mask, z_mask, n_y, coeff, out, k, n_amp, BLOCK=BLOCK, num_warps=4)
    return out
