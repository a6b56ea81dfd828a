"""Cell-wise L2 error (deal.II integrate_difference, L2_norm): sqrt(sum_q (u_h - u)^2 JxW) per cell."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK_CELLS = 256


@triton.jit
def _cell_l2_error(uh, u, jxw, err, n_cells, N_Q: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    qp = tl.arange(0, N_Q)
    for blk in range(pid, tl.cdiv(n_cells, BLOCK_C), nprog):
        cells = blk * BLOCK_C + tl.arange(0, BLOCK_C)
        live = cells < n_cells
        # one row of N_Q quadrature values per cell
        offs = cells[:, None] * N_Q + qp[None, :]
        mask = live[:, None]
        vh = tl.load(uh + offs, mask=mask, other=0.0)
        ve = tl.load(u + offs, mask=mask, other=0.0)
        w = tl.load(jxw + offs, mask=mask, other=0.0)
        diff = vh - ve
        local = tl.sum(diff * diff * w, axis=1)
        tl.store(err + cells, tl.sqrt(local), mask=live)


def run(uh: torch.Tensor, u: torch.Tensor, jxw: torch.Tensor) -> torch.Tensor:
    n_cells, n_q = uh.shape
    assert n_q == triton.next_power_of_2(n_q)
    err = torch.empty((n_cells,), device=uh.device, dtype=uh.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(n_cells, _BLOCK_CELLS)),)
    _cell_l2_error[grid](uh, u, jxw, err, n_cells, N_Q=n_q, BLOCK_C=_BLOCK_CELLS)
    return err
