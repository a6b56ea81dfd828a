"""ORE LGM 1F state evolution + numeraire deflators on the exposure grid."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _lgm_step(x_prev, z, zeta, H, p0, x_out, d_out, i, S, BS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    zeta0 = tl.load(zeta + i)
    zeta1 = tl.load(zeta + i + 1)
    sd = tl.sqrt(zeta1 - zeta0)
    h = tl.load(H + i + 1)
    p = tl.load(p0 + i + 1)
    conv = 0.5 * h * h * zeta1
    for blk in range(pid, tl.cdiv(S, BS), nprog):
        cols = blk * BS + tl.arange(0, BS)
        m = cols < S
        x = tl.load(x_prev + cols, mask=m, other=0.0)
        dz = tl.load(z + cols, mask=m, other=0.0)
        x = x + sd * dz
        tl.store(x_out + cols, x, mask=m)
        tl.store(d_out + cols, p * tl.exp(-h * x - conv), mask=m)


def run(z: torch.Tensor, zeta: torch.Tensor, H: torch.Tensor, p0: torch.Tensor) -> tuple:
    T, S = z.shape
    x = torch.empty((T, S), device=z.device, dtype=torch.float32)
    d = torch.empty((T, S), device=z.device, dtype=torch.float32)
    BS = 2048
    grid = (min(_VECTOR_CORES, triton.cdiv(S, BS)),)
    x_prev = torch.zeros(S, device=z.device, dtype=torch.float32)
    for i in range(T):
        _lgm_step[grid](x_prev, z[i], zeta, H, p0, x[i], d[i], i, S, BS=BS)
        x_prev = x[i]
    return x, d
