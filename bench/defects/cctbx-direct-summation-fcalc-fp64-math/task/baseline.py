"""Structure factors by direct summation (cctbx algorithm="direct"): F(h) = sum_j q_j f0_j(s2) exp(-B_j s2) exp(2 pi i h.x_j)."""
import torch
import triton
import triton.language as tl

BLOCK_R = 32
BLOCK_A = 64


@triton.jit
def _form_factor(coeffs, ELEMENT: tl.constexpr, s2):
    """Cromer-Mann f0 of one element at (sin(theta)/lambda)^2 = s2, in the precision of s2."""
    f = tl.load(coeffs + 9 * ELEMENT + 8).to(s2.dtype)
    for i in tl.static_range(4):
        a_i = tl.load(coeffs + 9 * ELEMENT + i).to(s2.dtype)
        b_i = tl.load(coeffs + 9 * ELEMENT + 4 + i).to(s2.dtype)
        f += a_i * tl.exp(-b_i * s2)
    return f


@triton.jit
def _fcalc_direct(hkl, s2, xyz, b_iso, occ, atom_type, coeffs, fa, fb, n_refl, n_atoms,
                  BLOCK_R: tl.constexpr, BLOCK_A: tl.constexpr):
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    r_ok = r < n_refl
    # fp32 throughout: the phase is reduced to [0, 1) cycles before sin/cos, so ~1e-5 rad is kept.
    h = tl.load(hkl + 3 * r, mask=r_ok, other=0).to(tl.float32)
    k = tl.load(hkl + 3 * r + 1, mask=r_ok, other=0).to(tl.float32)
    l = tl.load(hkl + 3 * r + 2, mask=r_ok, other=0).to(tl.float32)
    s = tl.load(s2 + r, mask=r_ok, other=0.0)
    f_c = _form_factor(coeffs, 0, s)
    f_n = _form_factor(coeffs, 1, s)
    f_o = _form_factor(coeffs, 2, s)
    f_s = _form_factor(coeffs, 3, s)
    two_pi = 6.283185307179586
    acc_a = tl.zeros([BLOCK_R, BLOCK_A], dtype=tl.float32)
    acc_b = tl.zeros([BLOCK_R, BLOCK_A], dtype=tl.float32)
    for start in range(0, n_atoms, BLOCK_A):
        j = start + tl.arange(0, BLOCK_A)
        j_ok = j < n_atoms
        x = tl.load(xyz + 3 * j, mask=j_ok, other=0.0)
        y = tl.load(xyz + 3 * j + 1, mask=j_ok, other=0.0)
        z = tl.load(xyz + 3 * j + 2, mask=j_ok, other=0.0)
        b = tl.load(b_iso + j, mask=j_ok, other=0.0)
        q = tl.load(occ + j, mask=j_ok, other=0.0)
        t = tl.load(atom_type + j, mask=j_ok, other=0)[None, :]
        f0 = tl.where(t == 0, f_c[:, None],
                      tl.where(t == 1, f_n[:, None], tl.where(t == 2, f_o[:, None], f_s[:, None])))
        f = f0 * q[None, :] * tl.exp(-b[None, :] * s[:, None])
        cycles = h[:, None] * x[None, :] + k[:, None] * y[None, :] + l[:, None] * z[None, :]
        cycles = cycles - tl.floor(cycles)
        angle = two_pi * cycles
        acc_a += f * tl.cos(angle)
        acc_b += f * tl.sin(angle)
    tl.store(fa + r, tl.sum(acc_a, axis=1), mask=r_ok)
    tl.store(fb + r, tl.sum(acc_b, axis=1), mask=r_ok)


def run(hkl, s2, xyz, b_iso, occ, atom_type, coeffs) -> tuple:
    n_refl, n_atoms = hkl.shape[0], xyz.shape[0]
    fa = torch.empty(n_refl, device=s2.device, dtype=torch.float32)
    fb = torch.empty(n_refl, device=s2.device, dtype=torch.float32)
    grid = (triton.cdiv(n_refl, BLOCK_R),)
    _fcalc_direct[grid](hkl, s2, xyz, b_iso, occ, atom_type, coeffs, fa, fb, n_refl, n_atoms,
                        BLOCK_R=BLOCK_R, BLOCK_A=BLOCK_A, num_warps=4)
    return fa, fb
