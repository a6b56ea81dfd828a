"""BOUT++ Grad_par(f) = DDY(f) / sqrt(g_22), 4th-order central difference along the field-aligned y."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
MYG = 2     # y guard cells on each side
BY = 8      # y rows per item


@triton.jit
def _grad_par_c4(f, dy, g22, out, NX, NY, NZ,
                 MYG: tl.constexpr, BY: tl.constexpr, BZ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    nyb = tl.cdiv(NY, BY)
    for item in range(pid, NX * nyb, nprog):
        x = item // nyb
        y = (item % nyb) * BY + tl.arange(0, BY)
        z = tl.arange(0, BZ)
        ymask = y < NY
        mask = ymask[:, None] & (z < NZ)[None, :]
        src = f + (x * (NY + 2 * MYG) + MYG) * NZ + y[:, None] * NZ + z[None, :]
        fp1 = tl.load(src + NZ, mask=mask, other=0.0)
        fm1 = tl.load(src - NZ, mask=mask, other=0.0)
        fp2 = tl.load(src + 2 * NZ, mask=mask, other=0.0)
        fm2 = tl.load(src - 2 * NZ, mask=mask, other=0.0)
        d = tl.load(dy + x * NY + y, mask=ymask, other=1.0)
        g = tl.load(g22 + x * NY + y, mask=ymask, other=1.0)
        res = (8.0 * (fp1 - fm1) - (fp2 - fm2)) / (12.0 * d * tl.sqrt(g))[:, None]
        tl.store(out + (x * NY) * NZ + y[:, None] * NZ + z[None, :], res, mask=mask)


def run(f: torch.Tensor, dy: torch.Tensor, g22: torch.Tensor) -> torch.Tensor:
    NX, NYG, NZ = f.shape
    NY = NYG - 2 * MYG
    out = torch.empty((NX, NY, NZ), device=f.device, dtype=f.dtype)
    grid = (min(_VECTOR_CORES, NX * triton.cdiv(NY, BY)),)
    _grad_par_c4[grid](f, dy, g22, out, NX, NY, NZ, MYG=MYG, BY=BY, BZ=triton.next_power_of_2(NZ))
    return out
