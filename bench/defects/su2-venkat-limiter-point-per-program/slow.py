"""Venkatakrishnan limiter of the primitive variables on a vertex-based mesh (SU2 computeLimiters)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _venkat_point(prim, grad, coord, adj_ptr, adj, lim, eps2, n_var, VARS: tl.constexpr):
    i = tl.program_id(0)
    v = tl.arange(0, VARS)
    vm = v < n_var
    ui = tl.load(prim + i * n_var + v, mask=vm, other=0.0)
    start = tl.load(adj_ptr + i)
    end = tl.load(adj_ptr + i + 1)
    umax = ui
    umin = ui
    for k in range(start, end):
        uj = tl.load(prim + tl.load(adj + k) * n_var + v, mask=vm, other=0.0)
        umax = tl.maximum(umax, uj)
        umin = tl.minimum(umin, uj)
    dmax = umax - ui
    dmin = umin - ui
    gx = tl.load(grad + (i * n_var + v) * 3 + 0, mask=vm, other=0.0)
    gy = tl.load(grad + (i * n_var + v) * 3 + 1, mask=vm, other=0.0)
    gz = tl.load(grad + (i * n_var + v) * 3 + 2, mask=vm, other=0.0)
    xi = tl.load(coord + i * 3 + 0)
    yi = tl.load(coord + i * 3 + 1)
    zi = tl.load(coord + i * 3 + 2)
    phi = tl.full([VARS], 1.0, dtype=tl.float32)
    for k in range(start, end):
        j = tl.load(adj + k)
        proj = (gx * (0.5 * (tl.load(coord + j * 3 + 0) - xi))
                + gy * (0.5 * (tl.load(coord + j * 3 + 1) - yi))
                + gz * (0.5 * (tl.load(coord + j * 3 + 2) - zi)))
        delta = tl.where(proj > 0, dmax, dmin)
        y = delta * (delta + proj) + eps2
        phi = tl.minimum(phi, (y + delta * proj) / (y + 2.0 * proj * proj))
    tl.store(lim + i * n_var + v, phi, mask=vm)


def run(prim, grad, coord, adj_ptr, adj, eps2):
    n_points, n_var = prim.shape
    lim = torch.empty_like(prim)
    _venkat_point[(n_points,)](prim, grad, coord, adj_ptr, adj, lim, eps2, n_var,
                               VARS=triton.next_power_of_2(n_var), num_warps=1)
    return lim
