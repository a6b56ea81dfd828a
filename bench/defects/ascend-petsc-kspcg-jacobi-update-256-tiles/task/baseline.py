"""One pass of PETSc CG's vector phase: x += alpha p, r -= alpha w, z = Jacobi(r), (r, z) and (r, r)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 2048


@triton.jit
def _cg_vector_update(x, r, p, w, dinv, alpha, x_out, r_out, z_out, dots, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    a = tl.load(alpha)
    acc_rz = tl.zeros([BLOCK], dtype=tl.float32)
    acc_rr = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid * BLOCK, n, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < n
        xv = tl.load(x + offs, mask=m, other=0.0)
        rv = tl.load(r + offs, mask=m, other=0.0)
        pv = tl.load(p + offs, mask=m, other=0.0)
        wv = tl.load(w + offs, mask=m, other=0.0)
        dv = tl.load(dinv + offs, mask=m, other=0.0)
        xn = xv + a * pv
        rn = rv - a * wv
        zn = dv * rn
        tl.store(x_out + offs, xn, mask=m)
        tl.store(r_out + offs, rn, mask=m)
        tl.store(z_out + offs, zn, mask=m)
        acc_rz += rn * zn
        acc_rr += rn * rn
    tl.atomic_add(dots, tl.sum(acc_rz, axis=0))
    tl.atomic_add(dots + 1, tl.sum(acc_rr, axis=0))


def run(x, r, p, w, dinv, alpha):
    n = x.numel()
    x_out = torch.empty_like(x)
    r_out = torch.empty_like(r)
    z_out = torch.empty_like(r)
    dots = torch.zeros(2, device=x.device, dtype=torch.float32)
    grid = (min(_VECTOR_CORES, triton.cdiv(n, _BLOCK)),)
    _cg_vector_update[grid](x, r, p, w, dinv, alpha, x_out, r_out, z_out, dots, n, BLOCK=_BLOCK)
    return x_out, r_out, z_out, dots
