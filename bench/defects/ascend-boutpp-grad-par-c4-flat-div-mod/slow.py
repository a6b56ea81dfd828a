"""BOUT++ Grad_par(f) = DDY(f) / sqrt(g_22), 4th-order central difference along the field-aligned y."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
MYG = 2         # y guard cells on each side
BLOCK = 2048    # interior points per item


@triton.jit
def _grad_par_c4(f, dy, g22, out, NX, NY, NZ,
                 MYG: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    total = NX * NY * NZ
    for item in range(pid, tl.cdiv(total, BLOCK), nprog):
        # flat interior index, decoded like BOUT++'s Ind3D: i = (x * ny + y) * nz + z
        i = item * BLOCK + tl.arange(0, BLOCK)
        mask = i < total
        z = i % NZ
        xy = i // NZ
        y = xy % NY
        x = xy // NY
        src = f + (x * (NY + 2 * MYG) + MYG + y) * NZ + z
        fp1 = tl.load(src + NZ, mask=mask, other=0.0)
        fm1 = tl.load(src - NZ, mask=mask, other=0.0)
        fp2 = tl.load(src + 2 * NZ, mask=mask, other=0.0)
        fm2 = tl.load(src - 2 * NZ, mask=mask, other=0.0)
        d = tl.load(dy + xy, mask=mask, other=1.0)
        g = tl.load(g22 + xy, mask=mask, other=1.0)
        res = (8.0 * (fp1 - fm1) - (fp2 - fm2)) / (12.0 * d * tl.sqrt(g))
        tl.store(out + i, res, mask=mask)


def run(f: torch.Tensor, dy: torch.Tensor, g22: torch.Tensor) -> torch.Tensor:
    NX, NYG, NZ = f.shape
    NY = NYG - 2 * MYG
    out = torch.empty((NX, NY, NZ), device=f.device, dtype=f.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(NX * NY * NZ, BLOCK)),)
    _grad_par_c4[grid](f, dy, g22, out, NX, NY, NZ, MYG=MYG, BLOCK=BLOCK)
    return out
