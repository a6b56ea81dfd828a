"""QUDA-style plaquette: sum over sites and planes of Re Tr[U_mu(x) U_nu(x+mu) U_mu(x+nu)^+ U_nu(x)^+]."""
import torch
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _hop(s, x, y, z, t, X, Y, Z, T, MU: tl.constexpr):
    """Lexicographic index of the forward neighbour s + mu (periodic)."""
    if MU == 0:
        nb = tl.where(x == X - 1, s + 1 - X, s + 1)
    elif MU == 1:
        nb = tl.where(y == Y - 1, s + X - X * Y, s + X)
    elif MU == 2:
        nb = tl.where(z == Z - 1, s + X * Y - X * Y * Z, s + X * Y)
    else:
        nb = tl.where(t == T - 1, s + X * Y * Z - X * Y * Z * T, s + X * Y * Z)
    return nb


@triton.jit
def _link_product(gauge, V, site_a, site_b, ok, MU: tl.constexpr, NU: tl.constexpr, BLOCK: tl.constexpr):
    """U_MU(site_a) @ U_NU(site_b) as [BLOCK, 4, 4] re / im tiles (3x3 padded with zeros)."""
    c = tl.arange(0, 4)
    row = c[None, :, None]
    col = c[None, None, :]
    a_ok = ok[:, None, None] & (row < 3)
    b_ok = ok[:, None, None] & (col < 3)
    p_re = tl.zeros([BLOCK, 4, 4], dtype=tl.float32)
    p_im = tl.zeros([BLOCK, 4, 4], dtype=tl.float32)
    for k in tl.static_range(3):
        a = gauge + (MU * 18 + 2 * (3 * row + k)) * V + site_a[:, None, None]     # column k of U_MU
        b = gauge + (NU * 18 + 2 * (3 * k + col)) * V + site_b[:, None, None]     # row k of U_NU
        a_re = tl.load(a, mask=a_ok, other=0.0)
        a_im = tl.load(a + V, mask=a_ok, other=0.0)
        b_re = tl.load(b, mask=b_ok, other=0.0)
        b_im = tl.load(b + V, mask=b_ok, other=0.0)
        p_re += a_re * b_re - a_im * b_im
        p_im += a_re * b_im + a_im * b_re
    return p_re, p_im


@triton.jit
def _plaquette(gauge, sums, V, X, Y, Z, T, BLOCK: tl.constexpr):
    s = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = s < V
    x = s % X
    y = (s // X) % Y
    z = (s // (X * Y)) % Z
    t = s // (X * Y * Z)
    spatial = tl.zeros([BLOCK], dtype=tl.float32)
    temporal = tl.zeros([BLOCK], dtype=tl.float32)
    for mu in tl.static_range(3):
        s_mu = _hop(s, x, y, z, t, X, Y, Z, T, mu)
        for nu in tl.static_range(mu + 1, 4):
            s_nu = _hop(s, x, y, z, t, X, Y, Z, T, nu)
            # Re Tr[(U_mu(x) U_nu(x+mu)) (U_nu(x) U_mu(x+nu))^dagger]
            p_re, p_im = _link_product(gauge, V, s, s_mu, ok, mu, nu, BLOCK)
            q_re, q_im = _link_product(gauge, V, s, s_nu, ok, nu, mu, BLOCK)
            tr = tl.sum(tl.sum(p_re * q_re + p_im * q_im, axis=2), axis=1)
            if nu == 3:
                temporal += tr
            else:
                spatial += tr
    tl.atomic_add(sums, tl.sum(spatial, axis=0).to(tl.float64))
    tl.atomic_add(sums + 1, tl.sum(temporal, axis=0).to(tl.float64))


@triton.jit
def _normalise(sums, out, V):
    spatial = tl.load(sums) / (9.0 * V)
    temporal = tl.load(sums + 1) / (9.0 * V)
    tl.store(out, (0.5 * (spatial + temporal)).to(tl.float32))
    tl.store(out + 1, spatial.to(tl.float32))
    tl.store(out + 2, temporal.to(tl.float32))


def run(gauge: torch.Tensor, X: int, Y: int, Z: int, T: int) -> torch.Tensor:
    V = X * Y * Z * T
    sums = torch.zeros(2, device=gauge.device, dtype=torch.float64)
    out = torch.empty(3, device=gauge.device, dtype=gauge.dtype)
    _plaquette[(triton.cdiv(V, BLOCK),)](gauge, sums, V, X, Y, Z, T, BLOCK=BLOCK, num_warps=4)
    _normalise[(1,)](sums, out, V)
    return out
