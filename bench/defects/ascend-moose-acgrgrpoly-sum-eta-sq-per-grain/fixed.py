"""Grain growth Allen-Cahn step: ACGrGrPoly bulk term + ACInterface gradient term, all order parameters."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _grain_growth_step(eta, out, n_ops, nx, ny, dt_l, kappa_dx2, mu, two_gamma,
                       BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    plane = nx * ny
    n_chunks = tl.cdiv(nx, BLOCK)
    for blk in range(pid, ny * n_chunks, nprog):
        j = blk // n_chunks
        i = (blk % n_chunks) * BLOCK + tl.arange(0, BLOCK)
        valid = i < nx
        j_north = tl.minimum(j + 1, ny - 1)
        j_south = tl.maximum(j - 1, 0)
        # SumEtaj: squares of all order parameters at these cells
        sum_sq = tl.zeros([BLOCK], dtype=tl.float32)
        for k in range(n_ops):
            v = tl.load(eta + k * plane + j * nx + i, mask=valid, other=0.0)
            sum_sq += v * v
        for op in range(n_ops):
            field = eta + op * plane
            row = field + j * nx
            c = tl.load(row + i, mask=valid, other=0.0)
            pe = tl.load(row + i + 1, mask=i + 1 < nx, other=0.0)
            pe = tl.where(i == nx - 1, c, pe)
            pw = tl.load(row + i - 1, mask=(i >= 1) & valid, other=0.0)
            pw = tl.where(i == 0, c, pw)
            pn = tl.load(field + j_north * nx + i, mask=valid, other=0.0)
            ps = tl.load(field + j_south * nx + i, mask=valid, other=0.0)
            lap = pe + pw + pn + ps - 4.0 * c
            others = sum_sq - c * c
            dfdeta = mu * (c * c * c - c + two_gamma * c * others)
            new = c - dt_l * (dfdeta - kappa_dx2 * lap)
            tl.store(out + op * plane + j * nx + i, new, mask=valid)


def run(eta: torch.Tensor, dt: float, mobility: float, kappa: float, mu: float, gamma: float,
        dx: float) -> torch.Tensor:
    n_ops, ny, nx = eta.shape
    eta = eta.contiguous()
    out = torch.empty_like(eta)
    BLOCK = min(1024, triton.next_power_of_2(nx))
    grid = (min(_VECTOR_CORES, ny * triton.cdiv(nx, BLOCK)),)
    _grain_growth_step[grid](eta, out, n_ops, nx, ny, dt * mobility, kappa / (dx * dx), mu,
                             2.0 * gamma, BLOCK=BLOCK)
    return out
