"""Limber C_l of every tracer pair: sum over chi nodes of W_a W_b w / chi^2 * P((l + 1/2) / chi, z(chi))."""
import torch
import triton
import triton.language as tl

BLOCK_L = 64
BLOCK_C = 32
BLOCK_P = 64


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
               n_ell, n_chi, n_k, n_pairs, lnk0, inv_dlnk,
               BLOCK_L: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_P: tl.constexpr):
    l_idx = tl.program_id(0) * BLOCK_L + tl.arange(0, BLOCK_L)
    l_ok = l_idx < n_ell
    p_idx = tl.program_id(1) * BLOCK_P + tl.arange(0, BLOCK_P)
    p_ok = p_idx < n_pairs
    ta = tl.load(pair_a + p_idx, mask=p_ok, other=0)
    tb = tl.load(pair_b + p_idx, mask=p_ok, other=0)
    lnl = tl.log(tl.load(ells + l_idx, mask=l_ok, other=2.0) + 0.5)
    acc = tl.zeros([BLOCK_L, BLOCK_P], dtype=tl.float32)
    for c0 in range(0, n_chi, BLOCK_C):
        c_idx = c0 + tl.arange(0, BLOCK_C)
        c_ok = c_idx < n_chi
        x = tl.load(chi + c_idx, mask=c_ok, other=1.0)
        w = tl.load(wq + c_idx, mask=c_ok, other=0.0)
        pk = _pk_tile(lnpk, lnl, c_idx, c_ok, x, n_k, lnk0, inv_dlnk)
        both = c_ok[:, None] & p_ok[None, :]
        wa = tl.load(kern + ta[None, :] * n_chi + c_idx[:, None], mask=both, other=0.0)
        wb = tl.load(kern + tb[None, :] * n_chi + c_idx[:, None], mask=both, other=0.0)
        kk = wa * wb * (w / (x * x))[:, None]
        acc += tl.dot(pk, kk)
    tl.store(cl + p_idx[None, :] * n_ell + l_idx[:, None], acc, mask=l_ok[:, None] & p_ok[None, :])


def run(ells, chi, wq, kern, lnpk, pair_a, pair_b, lnk0, dlnk):
    n_ell, n_chi, n_k, n_pairs = ells.shape[0], chi.shape[0], lnpk.shape[1], pair_a.shape[0]
    cl = torch.empty(n_pairs, n_ell, device=ells.device, dtype=torch.float32)
    grid = (triton.cdiv(n_ell, BLOCK_L), triton.cdiv(n_pairs, BLOCK_P))
    _limber_cl[grid](ells, chi, wq, kern, lnpk, pair_a, pair_b, cl,
                     n_ell, n_chi, n_k, n_pairs, lnk0, 1.0 / dlnk,
                     BLOCK_L=BLOCK_L, BLOCK_C=BLOCK_C, BLOCK_P=BLOCK_P, num_warps=4)
    return cl
