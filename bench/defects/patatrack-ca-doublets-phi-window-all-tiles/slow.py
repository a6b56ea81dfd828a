"""Patatrack CA doublets between two pixel layers: per inner hit, the number of outer hits passing the
phi window, the z0 cut and the pt cut (hits in iphi-sorted SoA)."""
import torch
import triton
import triton.language as tl

BLOCK_I = 64
BLOCK_J = 64
PHI_UNIT = tl.constexpr(9.587379924285257e-05)  # pi / 32768


@triton.jit
def _ca_doublets(in_iphi, in_r, in_z, out_iphi, out_r, out_z, n_cells, n_in, n_out,
                 phi_cut, z0_cut, r2t4, max_dr,
                 BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    pid = tl.program_id(0)
    i = pid * BLOCK_I + tl.arange(0, BLOCK_I)
    i_ok = i < n_in
    phi_i = tl.load(in_iphi + i, mask=i_ok, other=0).to(tl.int32)
    r_i = tl.load(in_r + i, mask=i_ok, other=0.0)
    z_i = tl.load(in_z + i, mask=i_ok, other=0.0)
    count = tl.zeros([BLOCK_I], dtype=tl.int32)
    # every outer hit is a candidate: the phi window is one of the cuts below
    for j0 in range(0, n_out, BLOCK_J):
        j = j0 + tl.arange(0, BLOCK_J)
        j_ok = j < n_out
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
                       phi_cut, z0_cut, r2t4, max_dr,
                       BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, num_warps=4)
    return n_cells
