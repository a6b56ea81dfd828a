"""QMCPACK two-body Jastrow (B-spline functor) log value, gradient and Laplacian for a batch of walkers."""
import torch
import triton
import triton.language as tl

BLOCK_I = 32
BLOCK_J = 32


@triton.jit
def _distance_table(R, dist, displ, N, box, inv_box,
                    BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    """Electron-electron table of the walker (QMCPACK DistanceTableAA): r_ij and r_i - r_j, minimum image."""
    ib = tl.program_id(0)
    w = tl.program_id(1)
    i = ib * BLOCK_I + tl.arange(0, BLOCK_I)
    i_ok = i < N
    pos = R + w * 3 * N
    xi = tl.load(pos + i, mask=i_ok, other=0.0)
    yi = tl.load(pos + N + i, mask=i_ok, other=0.0)
    zi = tl.load(pos + 2 * N + i, mask=i_ok, other=0.0)
    plane = N * N
    for j0 in range(0, N, BLOCK_J):
        j = j0 + tl.arange(0, BLOCK_J)
        j_ok = j < N
        xj = tl.load(pos + j, mask=j_ok, other=0.0)
        yj = tl.load(pos + N + j, mask=j_ok, other=0.0)
        zj = tl.load(pos + 2 * N + j, mask=j_ok, other=0.0)
        dx = xi[:, None] - xj[None, :]
        dy = yi[:, None] - yj[None, :]
        dz = zi[:, None] - zj[None, :]
        dx = dx - box * tl.floor(dx * inv_box + 0.5)
        dy = dy - box * tl.floor(dy * inv_box + 0.5)
        dz = dz - box * tl.floor(dz * inv_box + 0.5)
        r = tl.sqrt(dx * dx + dy * dy + dz * dz)
        ij = i[:, None] * N + j[None, :]
        ok = i_ok[:, None] & j_ok[None, :]
        tl.store(dist + w * plane + ij, r, mask=ok)
        tl.store(displ + (w * 3 + 0) * plane + ij, dx, mask=ok)
        tl.store(displ + (w * 3 + 1) * plane + ij, dy, mask=ok)
        tl.store(displ + (w * 3 + 2) * plane + ij, dz, mask=ok)


@triton.jit
def _functor_vgl(dist, uvals, coefs, N, n_up, rcut, dr_inv,
                 NC: tl.constexpr, BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    """B-spline functor of each pair's spin channel (BsplineFunctor::evaluateVGL): u, du/r and d2u per pair."""
    ib = tl.program_id(0)
    w = tl.program_id(1)
    i = ib * BLOCK_I + tl.arange(0, BLOCK_I)
    i_ok = i < N
    spin_i = i >= n_up
    plane = N * N
    for j0 in range(0, N, BLOCK_J):
        j = j0 + tl.arange(0, BLOCK_J)
        j_ok = j < N
        ij = i[:, None] * N + j[None, :]
        ok = i_ok[:, None] & j_ok[None, :]
        r = tl.load(dist + w * plane + ij, mask=ok, other=0.0)
        pair = ok & (i[:, None] != j[None, :]) & (r < rcut)
        # B-spline functor of the spin pair: interval k, fraction t
        tt = r * dr_inv
        knot = tl.floor(tt)
        t = tt - knot
        fun = (spin_i[:, None] != (j >= n_up)[None, :]).to(tl.int32)
        cp = coefs + fun * NC + knot.to(tl.int32)
        c0 = tl.load(cp, mask=pair, other=0.0)
        c1 = tl.load(cp + 1, mask=pair, other=0.0)
        c2 = tl.load(cp + 2, mask=pair, other=0.0)
        c3 = tl.load(cp + 3, mask=pair, other=0.0)
        t2 = t * t
        t3 = t2 * t
        s = 1.0 - t
        u = (c0 * s * s * s + c1 * (3.0 * t3 - 6.0 * t2 + 4.0)
             + c2 * (-3.0 * t3 + 3.0 * t2 + 3.0 * t + 1.0) + c3 * t3) * (1.0 / 6.0)
        du = (-0.5 * c0 * s * s + c1 * (1.5 * t2 - 2.0 * t)
              + c2 * (-1.5 * t2 + t + 0.5) + 0.5 * c3 * t2) * dr_inv
        d2u = (c0 * s + c1 * (3.0 * t - 2.0) + c2 * (1.0 - 3.0 * t) + c3 * t) * (dr_inv * dr_inv)
        du_r = du / tl.where(pair, r, 1.0)
        tl.store(uvals + (w * 3 + 0) * plane + ij, u, mask=ok)
        tl.store(uvals + (w * 3 + 1) * plane + ij, du_r, mask=ok)
        tl.store(uvals + (w * 3 + 2) * plane + ij, d2u, mask=ok)


@triton.jit
def _accumulate_gl(displ, uvals, grad, lap, upart, N,
                   BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    """Per-electron sums: grad -= du/r * (r_i - r_j), lap -= d2u + 2 du/r, and the u partial sums."""
    ib = tl.program_id(0)
    w = tl.program_id(1)
    i = ib * BLOCK_I + tl.arange(0, BLOCK_I)
    i_ok = i < N
    plane = N * N
    gx = tl.zeros([BLOCK_I], dtype=tl.float32)
    gy = tl.zeros([BLOCK_I], dtype=tl.float32)
    gz = tl.zeros([BLOCK_I], dtype=tl.float32)
    lp = tl.zeros([BLOCK_I], dtype=tl.float32)
    us = tl.zeros([BLOCK_I], dtype=tl.float32)
    for j0 in range(0, N, BLOCK_J):
        j = j0 + tl.arange(0, BLOCK_J)
        j_ok = j < N
        ij = i[:, None] * N + j[None, :]
        ok = i_ok[:, None] & j_ok[None, :]
        u = tl.load(uvals + (w * 3 + 0) * plane + ij, mask=ok, other=0.0)
        du_r = tl.load(uvals + (w * 3 + 1) * plane + ij, mask=ok, other=0.0)
        d2u = tl.load(uvals + (w * 3 + 2) * plane + ij, mask=ok, other=0.0)
        dx = tl.load(displ + (w * 3 + 0) * plane + ij, mask=ok, other=0.0)
        dy = tl.load(displ + (w * 3 + 1) * plane + ij, mask=ok, other=0.0)
        dz = tl.load(displ + (w * 3 + 2) * plane + ij, mask=ok, other=0.0)
        gx -= tl.sum(du_r * dx, axis=1)
        gy -= tl.sum(du_r * dy, axis=1)
        gz -= tl.sum(du_r * dz, axis=1)
        lp -= tl.sum(d2u + 2.0 * du_r, axis=1)
        us += tl.sum(u, axis=1)
    out = grad + w * 3 * N
    tl.store(out + i, gx, mask=i_ok)
    tl.store(out + N + i, gy, mask=i_ok)
    tl.store(out + 2 * N + i, gz, mask=i_ok)
    tl.store(lap + w * N + i, lp, mask=i_ok)
    tl.store(upart + w * tl.num_programs(0) + ib, tl.sum(us, axis=0))


@triton.jit
def _log_j(upart, logj, n_blocks, BLOCK: tl.constexpr):
    w = tl.program_id(0)
    k = tl.arange(0, BLOCK)
    parts = tl.load(upart + w * n_blocks + k, mask=k < n_blocks, other=0.0)
    tl.store(logj + w, -0.5 * tl.sum(parts, axis=0))


def run(R: torch.Tensor, box: float, coefs: torch.Tensor, rcut: float, n_up: int) -> tuple:
    W, _, N = R.shape
    nc = coefs.shape[1]
    n_blocks = triton.cdiv(N, BLOCK_I)
    dist = torch.empty((W, N, N), device=R.device, dtype=R.dtype)
    displ = torch.empty((W, 3, N, N), device=R.device, dtype=R.dtype)
    uvals = torch.empty((W, 3, N, N), device=R.device, dtype=R.dtype)      # u, du/r, d2u per pair
    grad = torch.empty_like(R)
    lap = torch.empty((W, N), device=R.device, dtype=R.dtype)
    upart = torch.empty((W, n_blocks), device=R.device, dtype=torch.float32)
    logj = torch.empty(W, device=R.device, dtype=R.dtype)
    grid = (n_blocks, W)
    _distance_table[grid](R, dist, displ, N, box, 1.0 / box,
                          BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, num_warps=4)
    _functor_vgl[grid](dist, uvals, coefs, N, n_up, rcut, (nc - 3) / rcut,
                       NC=nc, BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, num_warps=4)
    _accumulate_gl[grid](displ, uvals, grad, lap, upart, N, BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, num_warps=4)
    _log_j[(W,)](upart, logj, n_blocks, BLOCK=triton.next_power_of_2(n_blocks))
    return logj, grad, lap
