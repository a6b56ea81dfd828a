"""D3Q19 Zou-He velocity inlet (Hecht-Harting closure) on the x = 0 face of a [19, nz, ny, nx] lattice."""
import torch
import triton
import triton.language as tl


@triton.jit
def _zou_he_inlet(f, u_in, out, n_face, nx, n_cells, BLOCK: tl.constexpr):
    face = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = face < n_face
    cell = f + face * nx
    f0 = tl.load(cell, mask=live, other=0.0)
    f1 = tl.load(cell + 1 * n_cells, mask=live, other=0.0)
    f2 = tl.load(cell + 2 * n_cells, mask=live, other=0.0)
    f3 = tl.load(cell + 3 * n_cells, mask=live, other=0.0)
    f4 = tl.load(cell + 4 * n_cells, mask=live, other=0.0)
    f5 = tl.load(cell + 5 * n_cells, mask=live, other=0.0)
    f6 = tl.load(cell + 6 * n_cells, mask=live, other=0.0)
    f7 = tl.load(cell + 7 * n_cells, mask=live, other=0.0)
    f8 = tl.load(cell + 8 * n_cells, mask=live, other=0.0)
    f9 = tl.load(cell + 9 * n_cells, mask=live, other=0.0)
    f11 = tl.load(cell + 11 * n_cells, mask=live, other=0.0)
    f12 = tl.load(cell + 12 * n_cells, mask=live, other=0.0)
    f17 = tl.load(cell + 17 * n_cells, mask=live, other=0.0)
    f18 = tl.load(cell + 18 * n_cells, mask=live, other=0.0)
    ux = tl.load(u_in + face, mask=live, other=0.0)
    uy = tl.load(u_in + n_face + face, mask=live, other=0.0)
    uz = tl.load(u_in + 2 * n_face + face, mask=live, other=0.0)

    rest = f0 + f2 + f3 + f8 + f9 + f11 + f12 + f17 + f18
    outgoing = f1 + f4 + f5 + f6 + f7
    rho = (rest + 2.0 * outgoing) / (1.0 - ux)
    ny_corr = 0.5 * (f11 + f17 + f18 - f2 - f8 - f9) - rho * uy * (1.0 / 3.0)
    nz_corr = 0.5 * (f12 + f17 + f9 - f3 - f18 - f8) - rho * uz * (1.0 / 3.0)
    sixth = rho * (1.0 / 6.0)
    tl.store(out + face, f1 + rho * ux * (1.0 / 3.0), mask=live)
    tl.store(out + n_face + face, f4 + sixth * (ux + uy) - ny_corr, mask=live)
    tl.store(out + 2 * n_face + face, f5 + sixth * (ux - uy) + ny_corr, mask=live)
    tl.store(out + 3 * n_face + face, f6 + sixth * (ux + uz) - nz_corr, mask=live)
    tl.store(out + 4 * n_face + face, f7 + sixth * (ux - uz) + nz_corr, mask=live)


def run(f: torch.Tensor, u_in: torch.Tensor) -> torch.Tensor:
    _, nz, ny, nx = f.shape
    n_face = nz * ny
    out = torch.empty((5, nz, ny), device=f.device, dtype=torch.float32)
    BLOCK = 128
    _zou_he_inlet[(triton.cdiv(n_face, BLOCK),)](f, u_in, out, n_face, nx, f[0].numel(), BLOCK=BLOCK, num_warps=4)
    return out
