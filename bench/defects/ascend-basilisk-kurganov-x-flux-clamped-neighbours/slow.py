"""Saint-Venant x-sweep: hydrostatic reconstruction + Kurganov flux on both x-faces of every cell."""
import torch
import triton
import triton.language as tl

G = 9.81
DRY = 1e-6
EPS = 1e-10
BR = 2
BC = 256
_VECTOR_CORES = 40


@triton.jit
def _velocity(h, q, DRY: tl.constexpr):
    wet = h > DRY
    return tl.where(wet, q / tl.where(wet, h, 1.0), 0.0)


@triton.jit
def _face_flux(hL, uL, vL, zL, hR, uR, vR, zR, G: tl.constexpr, EPS: tl.constexpr):
    zf = tl.maximum(zL, zR)
    hm = tl.maximum(hL + zL - zf, 0.0)
    hp = tl.maximum(hR + zR - zf, 0.0)
    cm = tl.sqrt(G * hm)
    cp = tl.sqrt(G * hp)
    ap = tl.maximum(tl.maximum(uR + cp, uL + cm), 0.0)
    am = tl.minimum(tl.minimum(uR - cp, uL - cm), 0.0)
    qm = hm * uL
    qp = hp * uR
    ok = tl.maximum(ap, -am) > EPS
    inv = tl.where(ok, 1.0 / tl.where(ok, ap - am, 1.0), 0.0)
    fh = (ap * qm - am * qp + ap * am * (hp - hm)) * inv
    fu = (ap * (qm * uL + 0.5 * G * hm * hm) - am * (qp * uR + 0.5 * G * hp * hp) + ap * am * (qp - qm)) * inv
    fv = fh * tl.where(fh > 0.0, vL, vR)
    return fh, fu, fv, hm, hp


@triton.jit
def _sv_x_sweep(h_ptr, hu_ptr, hv_ptr, zb_ptr, ho_ptr, huo_ptr, hvo_ptr, ny, nx, dt_dx,
                G: tl.constexpr, DRY: tl.constexpr, EPS: tl.constexpr,
                BR: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_ct = tl.cdiv(nx, BC)
    for tile in range(pid, tl.cdiv(ny, BR) * n_ct, nprog):
        rows = (tile // n_ct) * BR + tl.arange(0, BR)
        cols = (tile % n_ct) * BC + tl.arange(0, BC)
        m = (rows < ny)[:, None] & (cols < nx)[None, :]
        base = rows[:, None] * nx
        # open boundary: the ghost cell beyond an edge copies the edge cell
        cw = tl.maximum(cols - 1, 0)
        ce = tl.minimum(cols + 1, nx - 1)
        oc = base + cols[None, :]
        ow = base + cw[None, :]
        oe = base + ce[None, :]

        h_c = tl.load(h_ptr + oc, mask=m, other=0.0)
        hu_c = tl.load(hu_ptr + oc, mask=m, other=0.0)
        hv_c = tl.load(hv_ptr + oc, mask=m, other=0.0)
        z_c = tl.load(zb_ptr + oc, mask=m, other=0.0)
        h_w = tl.load(h_ptr + ow, mask=m, other=0.0)
        hu_w = tl.load(hu_ptr + ow, mask=m, other=0.0)
        hv_w = tl.load(hv_ptr + ow, mask=m, other=0.0)
        z_w = tl.load(zb_ptr + ow, mask=m, other=0.0)
        h_e = tl.load(h_ptr + oe, mask=m, other=0.0)
        hu_e = tl.load(hu_ptr + oe, mask=m, other=0.0)
        hv_e = tl.load(hv_ptr + oe, mask=m, other=0.0)
        z_e = tl.load(zb_ptr + oe, mask=m, other=0.0)

        u_c = _velocity(h_c, hu_c, DRY)
        v_c = _velocity(h_c, hv_c, DRY)
        u_w = _velocity(h_w, hu_w, DRY)
        v_w = _velocity(h_w, hv_w, DRY)
        u_e = _velocity(h_e, hu_e, DRY)
        v_e = _velocity(h_e, hv_e, DRY)

        fh_w, fu_w, fv_w, hm_w, hp_w = _face_flux(h_w, u_w, v_w, z_w, h_c, u_c, v_c, z_c, G, EPS)
        fh_e, fu_e, fv_e, hm_e, hp_e = _face_flux(h_c, u_c, v_c, z_c, h_e, u_e, v_e, z_e, G, EPS)

        h_new = h_c - dt_dx * (fh_e - fh_w)
        hu_new = hu_c - dt_dx * (fu_e - fu_w + 0.5 * G * (hp_w * hp_w - hm_e * hm_e))
        hv_new = hv_c - dt_dx * (fv_e - fv_w)
        tl.store(ho_ptr + oc, h_new, mask=m)
        tl.store(huo_ptr + oc, hu_new, mask=m)
        tl.store(hvo_ptr + oc, hv_new, mask=m)


def run(h: torch.Tensor, hu: torch.Tensor, hv: torch.Tensor, zb: torch.Tensor, dt_dx: float) -> tuple:
    ny, nx = h.shape
    h_new = torch.empty_like(h)
    hu_new = torch.empty_like(hu)
    hv_new = torch.empty_like(hv)
    grid = (min(_VECTOR_CORES, triton.cdiv(ny, BR) * triton.cdiv(nx, BC)),)
    _sv_x_sweep[grid](h, hu, hv, zb, h_new, hu_new, hv_new, ny, nx, dt_dx,
                      G=G, DRY=DRY, EPS=EPS, BR=BR, BC=BC)
    return h_new, hu_new, hv_new
