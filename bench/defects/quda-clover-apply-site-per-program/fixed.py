"""QUDA-style clover term: out = A(x) psi(x), two packed Hermitian 6x6 blocks per site (chiral basis)."""
import torch
import triton
import triton.language as tl

ROWS = 32   # half-site rows (site, chirality) per program: 16 lattice sites


@triton.jit
def _apply_clover(clover, psi, out, n_rows, ROWS: tl.constexpr):
    # row = 2 * site + chirality: 36 packed clover reals and 12 spinor reals (6 complex) per row
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    r_ok = r < n_rows
    k = tl.arange(0, 8)
    ra = r[:, None, None]
    a = k[None, :, None]
    b = k[None, None, :]
    # entry (a, b) of the Hermitian block: diagonal real, else the packed lower-triangle entry (max, min),
    # conjugated above the diagonal
    hi = tl.maximum(a, b)
    lo = tl.minimum(a, b)
    packed = 6 + 2 * (((hi * (hi - 1)) >> 1) + lo)
    inside = r_ok[:, None, None] & (a < 6) & (b < 6)
    diag = a == b
    blk = clover + ra * 36
    m_re = tl.load(blk + tl.where(diag, a, packed), mask=inside, other=0.0)
    m_im = tl.load(blk + packed + 1, mask=inside & (a != b), other=0.0)
    m_im = tl.where(a < b, -m_im, m_im)
    src = psi + ra * 12 + 2 * b
    s_ok = r_ok[:, None, None] & (b < 6)
    p_re = tl.load(src, mask=s_ok, other=0.0)
    p_im = tl.load(src + 1, mask=s_ok, other=0.0)
    o_re = tl.sum(m_re * p_re - m_im * p_im, axis=2)
    o_im = tl.sum(m_re * p_im + m_im * p_re, axis=2)
    dst = out + r[:, None] * 12 + 2 * k[None, :]
    o_ok = r_ok[:, None] & (k[None, :] < 6)
    tl.store(dst, o_re, mask=o_ok)
    tl.store(dst + 1, o_im, mask=o_ok)


def run(clover: torch.Tensor, psi: torch.Tensor) -> torch.Tensor:
    n_rows = 2 * psi.shape[0]
    out = torch.empty_like(psi)
    _apply_clover[(triton.cdiv(n_rows, ROWS),)](clover, psi, out, n_rows, ROWS=ROWS, num_warps=4)
    return out
