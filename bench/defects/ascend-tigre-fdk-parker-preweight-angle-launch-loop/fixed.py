"""FDK pre-weighting of a short-scan cone-beam projection stack: cosine weight x Parker weight."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_PI = tl.constexpr(3.141592653589793)


@triton.jit
def _fdk_preweight(proj, beta, gamma, geo, out, A, V, U, stride_a, stride_v,
                   BV: tl.constexpr, BU: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    dsd = tl.load(geo)
    du = tl.load(geo + 1)
    dv = tl.load(geo + 2)
    delta = tl.load(geo + 3)
    cols = tl.arange(0, BU)
    cmask = cols < U
    gam = tl.load(gamma + cols, mask=cmask, other=0.0)
    u = (cols.to(tl.float32) - (U - 1) * 0.5) * du
    n_vb = tl.cdiv(V, BV)
    for t in range(pid, A * n_vb, nprog):
        a = t // n_vb
        vb = t - a * n_vb
        b = tl.load(beta + a)
        # Parker short-scan redundancy weight of this angle for every detector column
        rise = tl.sin(_PI / 4 * b / (delta - gam))
        fall = tl.sin(_PI / 4 * (_PI + 2 * delta - b) / (delta + gam))
        w_p = tl.where(b < 2 * (delta - gam), rise * rise,
                       tl.where(b <= _PI - 2 * gam, 1.0,
                                tl.where(b <= _PI + 2 * delta, fall * fall, 0.0)))
        rows = vb * BV + tl.arange(0, BV)
        rmask = rows < V
        v = (rows.to(tl.float32) - (V - 1) * 0.5) * dv
        w_cos = dsd / tl.sqrt(dsd * dsd + u[None, :] * u[None, :] + v[:, None] * v[:, None])
        mask = rmask[:, None] & cmask[None, :]
        offs = a * stride_a + rows[:, None] * stride_v + cols[None, :]
        x = tl.load(proj + offs, mask=mask, other=0.0)
        tl.store(out + offs, x * w_cos * w_p[None, :], mask=mask)


def run(proj: torch.Tensor, beta: torch.Tensor, gamma: torch.Tensor, geo: torch.Tensor) -> torch.Tensor:
    A, V, U = proj.shape
    out = torch.empty_like(proj)
    BU = triton.next_power_of_2(U)
    BV = max(1, 4096 // BU)
    grid = (min(_VECTOR_CORES, A * triton.cdiv(V, BV)),)
    _fdk_preweight[grid](proj, beta, gamma, geo, out, A, V, U, proj.stride(0), proj.stride(1),
                         BV=BV, BU=BU)
    return out
