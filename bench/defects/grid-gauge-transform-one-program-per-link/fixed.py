"""Gauge transformation U'_mu(x) = g(x) U_mu(x) g(x + mu)^dagger of every link of the lattice."""
import torch
import triton
import triton.language as tl

BLOCK = 32


@triton.jit
def _neighbour_up(s, mu, LX, LY, LZ, LT):
    """Site index of s + mu (periodic), for the lexicographic order with x fastest."""
    stride = tl.where(mu == 0, 1, tl.where(mu == 1, LX, tl.where(mu == 2, LX * LY, LX * LY * LZ)))
    extent = tl.where(mu == 0, LX, tl.where(mu == 1, LY, tl.where(mu == 2, LZ, LT)))
    coord = (s // stride) % extent
    return tl.where(coord == extent - 1, s - (extent - 1) * stride, s + stride)


@triton.jit
def _gauge_transform_kernel(links, g, out, n_links, LX, LY, LZ, LT, BLOCK: tl.constexpr):
    link = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # BLOCK links: site link // 4, direction link % 4
    ok = link < n_links
    s = link // 4
    nb = _neighbour_up(s, link % 4, LX, LY, LZ, LT)
    r = tl.arange(0, 4)  # colour, 3 padded to 4
    m = ok[:, None, None] & (r[None, :, None] < 3) & (r[None, None, :] < 3)
    rc = r[None, :, None] * 6 + r[None, None, :] * 2  # element (row, col)
    cr = r[None, None, :] * 6 + r[None, :, None] * 2  # element (col, row): a transposed load
    s = s[:, None, None]
    nb = nb[:, None, None]
    link = link[:, None, None]
    g_re = tl.load(g + s * 18 + rc, mask=m, other=0.0)
    g_im = tl.load(g + s * 18 + rc + 1, mask=m, other=0.0)
    u_re = tl.load(links + link * 18 + rc, mask=m, other=0.0)
    u_im = tl.load(links + link * 18 + rc + 1, mask=m, other=0.0)
    # h[k, l] = conj(g(x + mu)[l, k])
    h_re = tl.load(g + nb * 18 + cr, mask=m, other=0.0)
    h_im = -tl.load(g + nb * 18 + cr + 1, mask=m, other=0.0)
    # a = g U: a[i, k] = sum_j g[i, j] U[j, k]
    a_re = tl.sum(g_re[:, :, :, None] * u_re[:, None, :, :] - g_im[:, :, :, None] * u_im[:, None, :, :], axis=2)
    a_im = tl.sum(g_re[:, :, :, None] * u_im[:, None, :, :] + g_im[:, :, :, None] * u_re[:, None, :, :], axis=2)
    # out = a h: out[i, l] = sum_k a[i, k] h[k, l]
    o_re = tl.sum(a_re[:, :, :, None] * h_re[:, None, :, :] - a_im[:, :, :, None] * h_im[:, None, :, :], axis=2)
    o_im = tl.sum(a_re[:, :, :, None] * h_im[:, None, :, :] + a_im[:, :, :, None] * h_re[:, None, :, :], axis=2)
    tl.store(out + link * 18 + rc, o_re, mask=m)
    tl.store(out + link * 18 + rc + 1, o_im, mask=m)


def run(links: torch.Tensor, g: torch.Tensor, lx: int, ly: int, lz: int, lt: int) -> torch.Tensor:
    n_links = 4 * lx * ly * lz * lt
    out = torch.empty_like(links)
    _gauge_transform_kernel[(triton.cdiv(n_links, BLOCK),)](links, g, out, n_links, lx, ly, lz, lt, BLOCK=BLOCK)
    return out
