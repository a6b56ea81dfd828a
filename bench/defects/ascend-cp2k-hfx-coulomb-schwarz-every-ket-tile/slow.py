"""Schwarz-screened Coulomb build over s-type primitive pairs: J_ij = sum_kl (ij|kl) D_kl."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK_I = 16
BLOCK_K = 64
HALF_SQRT_PI = tl.constexpr(0.8862269254527580)


@triton.jit
def _coulomb_j(bra_xyz, bra_p, bra_c, bra_q, ket_xyz, ket_p, ket_cd, ket_w, out, n, eps,
               BLOCK_I: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for rb in range(pid, tl.cdiv(n, BLOCK_I), nprog):
        i = rb * BLOCK_I + tl.arange(0, BLOCK_I)
        im = i < n
        px = tl.load(bra_xyz + i, mask=im, other=0.0)
        py = tl.load(bra_xyz + n + i, mask=im, other=0.0)
        pz = tl.load(bra_xyz + 2 * n + i, mask=im, other=0.0)
        p = tl.load(bra_p + i, mask=im, other=1.0)
        c = tl.load(bra_c + i, mask=im, other=0.0)
        qi = tl.load(bra_q + i, mask=im, other=0.0)
        acc = tl.zeros([BLOCK_I], dtype=tl.float32)
        for k0 in range(0, n, BLOCK_K):
            k = k0 + tl.arange(0, BLOCK_K)
            km = k < n
            qx = tl.load(ket_xyz + k, mask=km, other=0.0)
            qy = tl.load(ket_xyz + n + k, mask=km, other=0.0)
            qz = tl.load(ket_xyz + 2 * n + k, mask=km, other=0.0)
            q = tl.load(ket_p + k, mask=km, other=1.0)
            cd = tl.load(ket_cd + k, mask=km, other=0.0)
            w = tl.load(ket_w + k, mask=km, other=0.0)
            pq = p[:, None] + q[None, :]
            dx = px[:, None] - qx[None, :]
            dy = py[:, None] - qy[None, :]
            dz = pz[:, None] - qz[None, :]
            t = (p[:, None] * q[None, :]) / pq * (dx * dx + dy * dy + dz * dz)
            x = tl.sqrt(tl.maximum(t, 1e-30))
            f0 = tl.where(t < 1e-12, 1.0, HALF_SQRT_PI * tl.erf(x) / x)
            eri_d = c[:, None] * cd[None, :] / tl.sqrt(pq) * f0
            keep = qi[:, None] * w[None, :] >= eps
            acc += tl.sum(tl.where(keep, eri_d, 0.0), axis=1)
        tl.store(out + i, acc, mask=im)


def run(bra_xyz, bra_p, bra_c, bra_q, ket_xyz, ket_p, ket_cd, ket_w, eps) -> torch.Tensor:
    n = bra_p.shape[0]
    out = torch.empty(n, device=bra_p.device, dtype=bra_p.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK_I)),)
    _coulomb_j[grid](bra_xyz, bra_p, bra_c, bra_q, ket_xyz, ket_p, ket_cd, ket_w, out, n, eps,
                     BLOCK_I=BLOCK_I, BLOCK_K=BLOCK_K)
    return out
