"""Persistence images (GUDHI PersistenceImage): weighted Gaussians of a diagram's points summed on a pixel grid."""
import math

import torch
import triton
import triton.language as tl

BLOCK_PIX = 128
BLOCK_P = 32


@triton.jit
def _persistence_image(points, offsets, out, x0, y0, step_x, step_y, inv_two_var, norm,
                       NX: tl.constexpr, NPIX: tl.constexpr,
                       BLOCK_PIX: tl.constexpr, BLOCK_P: tl.constexpr):
    dgm = tl.program_id(0)
    pix = tl.program_id(1) * BLOCK_PIX + tl.arange(0, BLOCK_PIX)
    pix_ok = pix < NPIX
    gx = (pix % NX).to(tl.float32) * step_x + x0
    gy = (pix // NX).to(tl.float32) * step_y + y0
    start = tl.load(offsets + dgm)
    end = tl.load(offsets + dgm + 1)
    acc = tl.zeros([BLOCK_PIX, BLOCK_P], dtype=tl.float32)
    for p0 in range(start, end, BLOCK_P):
        p = p0 + tl.arange(0, BLOCK_P)
        ok = p < end
        birth = tl.load(points + 2 * p, mask=ok, other=0.0)
        death = tl.load(points + 2 * p + 1, mask=ok, other=0.0)
        pers = death - birth
        w = pers * pers
        ex = gx[:, None] - birth[None, :]
        ey = gy[:, None] - pers[None, :]
        g = tl.exp(-(ex * ex + ey * ey) * inv_two_var)
        acc += g * w[None, :]
    image = tl.sum(acc, axis=1)
    tl.store(out + dgm * NPIX + pix, image * norm, mask=pix_ok)


def run(points: torch.Tensor, offsets: torch.Tensor, im_range: tuple, nx: int, ny: int,
        bandwidth: float) -> torch.Tensor:
    n_dgm = offsets.shape[0] - 1
    npix = nx * ny
    out = torch.empty((n_dgm, npix), device=points.device, dtype=torch.float32)
    step_x = (im_range[1] - im_range[0]) / (nx - 1)
    step_y = (im_range[3] - im_range[2]) / (ny - 1)
    grid = (n_dgm, triton.cdiv(npix, BLOCK_PIX))
    _persistence_image[grid](points, offsets, out, im_range[0], im_range[2], step_x, step_y,
                             1.0 / (2.0 * bandwidth * bandwidth), 1.0 / (2.0 * math.pi * bandwidth * bandwidth),
                             NX=nx, NPIX=npix, BLOCK_PIX=BLOCK_PIX, BLOCK_P=BLOCK_P, num_warps=4)
    return out
