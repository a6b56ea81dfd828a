"""ORE LGM 1F state evolution + numeraire deflators on the exposure grid."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _lgm_paths(z, zeta, H, p0, x_out, d_out, T, S, BS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(S, BS), nprog):
        cols = blk * BS + tl.arange(0, BS)
        m = cols < S
        x = tl.zeros([BS], dtype=tl.float32)
        zeta0 = tl.load(zeta)
        for i in range(T):
            zeta1 = tl.load(zeta + i + 1)
            sd = tl.sqrt(zeta1 - zeta0)
            h = tl.load(H + i + 1)
            p = tl.load(p0 + i + 1)
            conv = 0.5 * h * h * zeta1
            dz = tl.load(z + i * S + cols, mask=m, other=0.0)
            x = x + sd * dz
            tl.store(x_out + i * S + cols, x, mask=m)
            tl.store(d_out + i * S + cols, p * tl.exp(-h * x - conv), mask=m)
            zeta0 = zeta1


def run(z: torch.Tensor, zeta: torch.Tensor, H: torch.Tensor, p0: torch.Tensor) -> tuple:
    T, S = z.shape
    x = torch.empty((T, S), device=z.device, dtype=torch.float32)
    d = torch.empty((T, S), device=z.device, dtype=torch.float32)
    BS = 2048
    grid = (min(_VECTOR_CORES, triton.cdiv(S, BS)),)
    _lgm_paths[grid](z, zeta, H, p0, x, d, T, S, BS=BS)
    return x, d
