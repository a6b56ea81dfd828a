"""WarpX BilinearFilter (one pass per direction) applied to Jx, Jy, Jz on a 2-D (x, z) grid."""
import torch
import triton
import triton.language as tl

GUARD = 2
BLOCK_Z = 256


@triton.jit
def _bilinear_filter(src, dst, NX, NZ, src_stride_c, src_stride_z, dst_stride_c, dst_stride_z,
                     G: tl.constexpr, BLOCK_Z: tl.constexpr):
    # one program per x node of the valid box, vector along z (AMReX's i index taken as the program)
    i = tl.program_id(0)
    k = tl.program_id(1) * BLOCK_Z + tl.arange(0, BLOCK_Z)
    comp = tl.program_id(2)
    ok = k < NZ
    centre = src + comp * src_stride_c + (k + G) * src_stride_z + (i + G)
    below = centre - src_stride_z
    above = centre + src_stride_z
    row_b = 0.25 * tl.load(below - 1, mask=ok) + 0.5 * tl.load(below, mask=ok) + 0.25 * tl.load(below + 1, mask=ok)
    row_c = 0.25 * tl.load(centre - 1, mask=ok) + 0.5 * tl.load(centre, mask=ok) + 0.25 * tl.load(centre + 1, mask=ok)
    row_a = 0.25 * tl.load(above - 1, mask=ok) + 0.5 * tl.load(above, mask=ok) + 0.25 * tl.load(above + 1, mask=ok)
    out = 0.25 * row_b + 0.5 * row_c + 0.25 * row_a
    tl.store(dst + comp * dst_stride_c + k * dst_stride_z + i, out, mask=ok)


def run(j: torch.Tensor) -> torch.Tensor:
    ncomp, nzg, nxg = j.shape
    nz, nx = nzg - 2 * GUARD, nxg - 2 * GUARD
    out = torch.empty((ncomp, nz, nx), device=j.device, dtype=j.dtype)
    grid = (nx, triton.cdiv(nz, BLOCK_Z), ncomp)
    _bilinear_filter[grid](j, out, nx, nz, j.stride(0), j.stride(1), out.stride(0), out.stride(1),
                           G=GUARD, BLOCK_Z=BLOCK_Z, num_warps=4)
    return out
