"""D3Q19 MRT collision (lbmpy create_mrt_orthogonal, collide-only sweep) on SoA populations f[q, cell]."""
import torch
import triton
import triton.language as tl

BLOCK = 32


@triton.jit
def _mrt_collide(f_in, f_out, c, w, m, m_inv, s, n_cells,
                 Q: tl.constexpr, QP: tl.constexpr, BLOCK: tl.constexpr):
    cell = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    q = tl.arange(0, QP)   # population index
    k = tl.arange(0, QP)   # moment index
    q_ok = q < Q
    ok = (cell < n_cells)[:, None] & q_ok[None, :]
    f = tl.load(f_in + q[None, :] * n_cells + cell[:, None], mask=ok, other=0.0)   # [BLOCK, QP]
    cx = tl.load(c + 3 * q + 0, mask=q_ok, other=0).to(tl.float32)[None, :]
    cy = tl.load(c + 3 * q + 1, mask=q_ok, other=0).to(tl.float32)[None, :]
    cz = tl.load(c + 3 * q + 2, mask=q_ok, other=0).to(tl.float32)[None, :]
    wq = tl.load(w + q, mask=q_ok, other=0.0)[None, :]
    # moment matrix rows m_rows[i, p] = M[i, p] and inverse rows m_inv_rows[q, i] = Minv[q, i], row-major
    mat_ok = (k < Q)[:, None] & q_ok[None, :]
    m_rows = tl.load(m + k[:, None] * Q + q[None, :], mask=mat_ok, other=0.0)
    m_inv_rows = tl.load(m_inv + q[:, None] * Q + k[None, :], mask=mat_ok, other=0.0)
    rate = tl.load(s + k, mask=k < Q, other=0.0)
    # equilibrium
    rho = tl.sum(f, axis=1)
    inv_rho = 1.0 / tl.where(rho > 0.0, rho, 1.0)
    ux = tl.sum(f * cx, axis=1) * inv_rho
    uy = tl.sum(f * cy, axis=1) * inv_rho
    uz = tl.sum(f * cz, axis=1) * inv_rho
    cu = ux[:, None] * cx + uy[:, None] * cy + uz[:, None] * cz
    uu = (ux * ux + uy * uy + uz * uz)[:, None]
    feq = wq * rho[:, None] * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * uu)
    # relax the non-equilibrium moments: dm = M (f - feq), f' = f - Minv (s * dm)
    dm = tl.dot(f - feq, tl.trans(m_rows), input_precision="tf32x3")
    dm = dm * rate[None, :]
    df = tl.dot(dm, tl.trans(m_inv_rows), input_precision="tf32x3")
    tl.store(f_out + q[None, :] * n_cells + cell[:, None], f - df, mask=ok)


def run(f: torch.Tensor, c: torch.Tensor, w: torch.Tensor, m: torch.Tensor, m_inv: torch.Tensor,
        s: torch.Tensor) -> torch.Tensor:
    Q, n_cells = f.shape
    out = torch.empty_like(f)
    grid = (triton.cdiv(n_cells, BLOCK),)
    _mrt_collide[grid](f, out, c, w, m, m_inv, s, n_cells,
                       Q=Q, QP=triton.next_power_of_2(Q), BLOCK=BLOCK, num_warps=4)
    return out
