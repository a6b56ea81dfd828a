"""Patatrack CA doublets between two pixel layers: per inner hit, the number of outer hits passing the
phi window, the z0 cut and the pt cut (hits in iphi-sorted SoA)."""
import torch
import triton
import triton.language as tl

BLOCK_I = 64
BLOCK_J = 64
PHI_UNIT = tl.constexpr(9.587379924285257e-05)  # pi / 32768


@triton.jit
def _ca_doublets(in_iphi, in_r, in_z, out_iphi, out_r, out_z, n_cells, n_in, n_out, n_steps,
                 phi_cut, z0_cut, r2t4, max_dr,
                 BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    pid = tl.program_id(0)
    i = pid * BLOCK_I + tl.arange(0, BLOCK_I)
    i_ok = i < n_in
    phi_i = tl.load(in_iphi + i, mask=i_ok, other=0).to(tl.int32)
    r_i = tl.load(in_r + i, mask=i_ok, other=0.0)
    z_i = tl.load(in_z + i, mask=i_ok, other=0.0)
    count = tl.zeros([BLOCK_I], dtype=tl.int32)
    # phi window of this block of inner hits, searched in the iphi-sorted outer layer; a window that
    # crosses +-pi becomes a virtual index range below 0 or above n_out
    lo_phi = tl.min(tl.where(i_ok, phi_i, 32767), axis=0) - phi_cut
    hi_phi = tl.max(tl.where(i_ok, phi_i, -32768), axis=0) + phi_cut + 1
    which = tl.arange(0, 2)
    key = tl.where(which == 0, lo_phi, hi_phi)
    turn = tl.where(key < -32768, -1, tl.where(key > 32767, 1, 0))
    key = key - turn * 65536
    lo = tl.zeros([2], dtype=tl.int32)
    hi = lo + n_out
    for _ in range(n_steps):
        mid = (lo + hi) // 2
        v = tl.load(out_iphi + mid, mask=mid < n_out, other=32767).to(tl.int32)
        live = lo < hi
        lo = tl.where(live & (v < key), mid + 1, lo)
        hi = tl.where(live & (v >= key), mid, hi)
    bound = lo + turn * n_out
    j_lo = tl.sum(tl.where(which == 0, bound, 0), axis=0)
    j_hi = tl.minimum(tl.sum(tl.where(which == 1, bound, 0), axis=0), j_lo + n_out)
    for v0 in range(j_lo, j_hi, BLOCK_J):
        v = v0 + tl.arange(0, BLOCK_J)
        j_ok = v < j_hi
        j = tl.where(v < 0, v + n_out, tl.where(v >= n_out, v - n_out, v))
        phi_o = tl.load(out_iphi + j, mask=j_ok, other=0).to(tl.int32)
        r_o = tl.load(out_r + j, mask=j_ok, other=0.0)
        z_o = tl.load(out_z + j, mask=j_ok, other=0.0)
        idphi = ((phi_o[None, :] - phi_i[:, None] + 32768) & 65535) - 32768
        dr = r_o[None, :] - r_i[:, None]
        z0_ok = tl.abs(z_i[:, None] * r_o[None, :] - r_i[:, None] * z_o[None, :]) <= z0_cut * dr
        dphi = idphi.to(tl.float32) * PHI_UNIT
        pt_ok = dphi * dphi * (r2t4 - r_i[:, None] * r_o[None, :]) <= dr * dr
        ok = (tl.abs(idphi) <= phi_cut) & (dr >= 0.0) & (dr <= max_dr) & z0_ok & pt_ok
        ok = ok & j_ok[None, :]
        count += tl.sum(ok.to(tl.int32), axis=1)
    tl.store(n_cells + i, count, mask=i_ok)


def run(in_iphi, in_r, in_z, out_iphi, out_r, out_z, phi_cut, z0_cut, r2t4, max_dr):
    n_in, n_out = in_r.shape[0], out_r.shape[0]
    n_cells = torch.empty(n_in, device=in_r.device, dtype=torch.int32)
    grid = (triton.cdiv(n_in, BLOCK_I),)
    _ca_doublets[grid](in_iphi, in_r, in_z, out_iphi, out_r, out_z, n_cells, n_in, n_out,
                       n_out.bit_length(), phi_cut, z0_cut, r2t4, max_dr,
                       BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, num_warps=4)
    return n_cells
