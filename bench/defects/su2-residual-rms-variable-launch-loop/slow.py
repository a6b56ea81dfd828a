"""RMS of each equation's residual over the mesh points (SU2 SetResidual_RMS)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _column_sum_squares(res, partial, n_points, stride_point, var, n_part, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    pts = pid * BLOCK + tl.arange(0, BLOCK)
    r = tl.load(res + pts * stride_point + var, mask=pts < n_points, other=0.0)
    tl.store(partial + var * n_part + pid, tl.sum(r * r, axis=0))


@triton.jit
def _finish_rms(partial, rms, n_part, n_points, BLOCK: tl.constexpr):
    var = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_part, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(partial + var * n_part + offs, mask=offs < n_part, other=0.0)
    tl.store(rms + var, tl.sqrt(tl.sum(acc, axis=0) / n_points))


def run(res: torch.Tensor) -> torch.Tensor:
    n_points, n_var = res.shape
    BLOCK = 2048
    n_part = triton.cdiv(n_points, BLOCK)
    partial = torch.empty((n_var, n_part), device=res.device, dtype=torch.float32)
    for var in range(n_var):
        _column_sum_squares[(n_part,)](res, partial, n_points, res.stride(0), var, n_part,
                                       BLOCK=BLOCK, num_warps=8)
    rms = torch.empty(n_var, device=res.device, dtype=torch.float32)
    _finish_rms[(n_var,)](partial, rms, n_part, n_points, BLOCK=1024, num_warps=4)
    return rms
