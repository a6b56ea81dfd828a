"""ducc0 wgridder grid2dirty_post: dirty[i, j] = Re(grid[(i - nx/2) % nu, (j - ny/2) % nv]) * cfu[|i - nx/2|] * cfv[|j - ny/2|]."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _grid_correct(grid, cfu, cfv, dirty, nx, ny, nu, nv, BLOCK: tl.constexpr):
    i = tl.program_id(0)                                  # one image row per program
    j = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)    # a block of its columns
    ok = j < ny
    di = i - nx // 2
    i2 = tl.where(di < 0, di + nu, di)                    # fftshift: negative offsets wrap to the top of the grid
    dj = j - ny // 2
    j2 = tl.where(dj < 0, dj + nv, dj)
    re = tl.load(grid + 2 * (i2 * nv + j2), mask=ok, other=0.0)
    cu = tl.load(cfu + tl.abs(di))
    cv = tl.load(cfv + tl.abs(dj), mask=ok, other=0.0)
    tl.store(dirty + i * ny + j, re * cu * cv, mask=ok)


def run(grid: torch.Tensor, cfu: torch.Tensor, cfv: torch.Tensor, nx: int, ny: int) -> torch.Tensor:
    nu, nv = grid.shape[0], grid.shape[1]
    dirty = torch.empty(nx, ny, device=grid.device, dtype=torch.float32)
    _grid_correct[(nx, triton.cdiv(ny, BLOCK))](grid, cfu, cfv, dirty, nx, ny, nu, nv, BLOCK=BLOCK, num_warps=4)
    return dirty
