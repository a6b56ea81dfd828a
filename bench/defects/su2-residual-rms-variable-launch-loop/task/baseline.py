"""RMS of each equation's residual over the mesh points (SU2 SetResidual_RMS)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _sum_squares(res, partial, n_points, n_var, stride_point, BLOCK: tl.constexpr, VARS: tl.constexpr):
    pid = tl.program_id(0)
    pts = pid * BLOCK + tl.arange(0, BLOCK)
    cols = tl.arange(0, VARS)
    m = (pts < n_points)[:, None] & (cols < n_var)[None, :]
    r = tl.load(res + pts[:, None] * stride_point + cols[None, :], mask=m, other=0.0)
    tl.store(partial + pid * VARS + cols, tl.sum(r * r, axis=0))


@triton.jit
def _finish_rms(partial, rms, n_part, n_points, n_var, ROWS: tl.constexpr, VARS: tl.constexpr):
    cols = tl.arange(0, VARS)
    acc = tl.zeros([ROWS, VARS], dtype=tl.float32)
    for start in range(0, n_part, ROWS):
        rows = start + tl.arange(0, ROWS)
        acc += tl.load(partial + rows[:, None] * VARS + cols[None, :], mask=(rows < n_part)[:, None], other=0.0)
    tl.store(rms + cols, tl.sqrt(tl.sum(acc, axis=0) / n_points), mask=cols < n_var)


def run(res: torch.Tensor) -> torch.Tensor:
    n_points, n_var = res.shape
    BLOCK = 1024
    VARS = triton.next_power_of_2(n_var)
    n_part = triton.cdiv(n_points, BLOCK)
    partial = torch.empty((n_part, VARS), device=res.device, dtype=torch.float32)
    _sum_squares[(n_part,)](res, partial, n_points, n_var, res.stride(0), BLOCK=BLOCK, VARS=VARS, num_warps=8)
    rms = torch.empty(n_var, device=res.device, dtype=torch.float32)
    _finish_rms[(1,)](partial, rms, n_part, n_points, n_var, ROWS=256, VARS=VARS, num_warps=4)
    return rms
