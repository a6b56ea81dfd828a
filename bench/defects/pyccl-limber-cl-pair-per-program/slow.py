"""Limber C_l of every tracer pair: sum over chi nodes of W_a W_b w / chi^2 * P((l + 1/2) / chi, z(chi))."""
import torch
import triton
import triton.language as tl

BLOCK_L = 64
BLOCK_C = 32


@triton.jit
def _pk_tile(lnpk, lnl, c_idx, c_ok, x, n_k, lnk0, inv_dlnk):
    """P((l + 1/2) / chi, z(chi)) for a [l, chi] tile: linear in ln k on the node's row of ln P."""
    u = (lnl[:, None] - tl.log(x)[None, :] - lnk0) * inv_dlnk
    u = tl.minimum(tl.maximum(u, 0.0), n_k - 1.0)
    i0 = tl.minimum(u.to(tl.int32), n_k - 2)
    t = u - i0.to(tl.float32)
    row = lnpk + c_idx[None, :] * n_k + i0
    p0 = tl.load(row, mask=c_ok[None, :], other=0.0)
    p1 = tl.load(row + 1, mask=c_ok[None, :], other=0.0)
    return tl.exp(p0 + t * (p1 - p0))


@triton.jit
def _limber_cl(ells, chi, wq, kern, lnpk, pair_a, pair_b, cl,
               n_ell, n_chi, n_k, lnk0, inv_dlnk,
               BLOCK_L: tl.constexpr, BLOCK_C: tl.constexpr):
    """One spectrum (tracer pair) and one block of multipoles per program."""
    pair = tl.program_id(0)
    l_idx = tl.program_id(1) * BLOCK_L + tl.arange(0, BLOCK_L)
    l_ok = l_idx < n_ell
    ta = tl.load(pair_a + pair)
    tb = tl.load(pair_b + pair)
    lnl = tl.log(tl.load(ells + l_idx, mask=l_ok, other=2.0) + 0.5)
    acc = tl.zeros([BLOCK_L], dtype=tl.float32)
    for c0 in range(0, n_chi, BLOCK_C):
        c_idx = c0 + tl.arange(0, BLOCK_C)
        c_ok = c_idx < n_chi
        x = tl.load(chi + c_idx, mask=c_ok, other=1.0)
        w = tl.load(wq + c_idx, mask=c_ok, other=0.0)
        pk = _pk_tile(lnpk, lnl, c_idx, c_ok, x, n_k, lnk0, inv_dlnk)
        wa = tl.load(kern + ta * n_chi + c_idx, mask=c_ok, other=0.0)
        wb = tl.load(kern + tb * n_chi + c_idx, mask=c_ok, other=0.0)
        kk = wa * wb * (w / (x * x))
        acc += tl.sum(pk * kk[None, :], axis=1)
    tl.store(cl + pair * n_ell + l_idx, acc, mask=l_ok)


def run(ells, chi, wq, kern, lnpk, pair_a, pair_b, lnk0, dlnk):
    n_ell, n_chi, n_k, n_pairs = ells.shape[0], chi.shape[0], lnpk.shape[1], pair_a.shape[0]
    cl = torch.empty(n_pairs, n_ell, device=ells.device, dtype=torch.float32)
    grid = (n_pairs, triton.cdiv(n_ell, BLOCK_L))
    _limber_cl[grid](ells, chi, wq, kern, lnpk, pair_a, pair_b, cl,
                     n_ell, n_chi, n_k, lnk0, 1.0 / dlnk,
                     BLOCK_L=BLOCK_L, BLOCK_C=BLOCK_C, num_warps=4)
    return cl
