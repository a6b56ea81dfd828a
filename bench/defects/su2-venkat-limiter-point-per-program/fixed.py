"""Venkatakrishnan limiter of the primitive variables on a vertex-based mesh (SU2 computeLimiters)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _venkat_points(prim, grad, coord, adj_ptr, adj, lim, eps2, n_points, n_var,
                   BLOCK: tl.constexpr, VARS: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    im = i < n_points
    v = tl.arange(0, VARS)
    m2 = im[:, None] & (v < n_var)[None, :]
    iv = i[:, None] * n_var + v[None, :]
    ui = tl.load(prim + iv, mask=m2, other=0.0)
    start = tl.load(adj_ptr + i, mask=im, other=0)
    count = tl.load(adj_ptr + i + 1, mask=im, other=0) - start
    most = tl.max(count, axis=0)
    umax = ui
    umin = ui
    for k in range(0, most):
        has = k < count
        j = tl.load(adj + start + k, mask=has, other=0)
        uj = tl.load(prim + j[:, None] * n_var + v[None, :], mask=m2 & has[:, None], other=0.0)
        umax = tl.where(has[:, None], tl.maximum(umax, uj), umax)
        umin = tl.where(has[:, None], tl.minimum(umin, uj), umin)
    dmax = umax - ui
    dmin = umin - ui
    gx = tl.load(grad + iv * 3 + 0, mask=m2, other=0.0)
    gy = tl.load(grad + iv * 3 + 1, mask=m2, other=0.0)
    gz = tl.load(grad + iv * 3 + 2, mask=m2, other=0.0)
    xi = tl.load(coord + i * 3 + 0, mask=im, other=0.0)
    yi = tl.load(coord + i * 3 + 1, mask=im, other=0.0)
    zi = tl.load(coord + i * 3 + 2, mask=im, other=0.0)
    phi = tl.full([BLOCK, VARS], 1.0, dtype=tl.float32)
    for k in range(0, most):
        has = k < count
        j = tl.load(adj + start + k, mask=has, other=0)
        hx = 0.5 * (tl.load(coord + j * 3 + 0, mask=has, other=0.0) - xi)
        hy = 0.5 * (tl.load(coord + j * 3 + 1, mask=has, other=0.0) - yi)
        hz = 0.5 * (tl.load(coord + j * 3 + 2, mask=has, other=0.0) - zi)
        proj = gx * hx[:, None] + gy * hy[:, None] + gz * hz[:, None]
        delta = tl.where(proj > 0, dmax, dmin)
        y = delta * (delta + proj) + eps2
        phi = tl.where(has[:, None], tl.minimum(phi, (y + delta * proj) / (y + 2.0 * proj * proj)), phi)
    tl.store(lim + iv, phi, mask=m2)


def run(prim, grad, coord, adj_ptr, adj, eps2):
    n_points, n_var = prim.shape
    lim = torch.empty_like(prim)
    BLOCK = 128
    _venkat_points[(triton.cdiv(n_points, BLOCK),)](prim, grad, coord, adj_ptr, adj, lim, eps2, n_points, n_var,
                                                    BLOCK=BLOCK, VARS=triton.next_power_of_2(n_var), num_warps=4)
    return lim
