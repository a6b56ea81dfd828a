"""Ray shooting through a population of SIS deflectors (lenstronomy SinglePlane.ray_shooting, ['SIS'] * K)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _sis_ray_shoot(x_ptr, y_ptr, src_x_ptr, src_y_ptr, te_ptr, cx_ptr, cy_ptr, k, bx_ptr, by_ptr, R,
                   R_MIN: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    te = tl.load(te_ptr + k)
    cx = tl.load(cx_ptr + k)
    cy = tl.load(cy_ptr + k)
    for blk in range(pid, tl.cdiv(R, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < R
        x = tl.load(x_ptr + offs, mask=m, other=0.0)
        y = tl.load(y_ptr + offs, mask=m, other=0.0)
        bx = tl.load(src_x_ptr + offs, mask=m, other=0.0)
        by = tl.load(src_y_ptr + offs, mask=m, other=0.0)
        dx = x - cx
        dy = y - cy
        r = tl.maximum(tl.sqrt(dx * dx + dy * dy), R_MIN)
        a = te / r
        tl.store(bx_ptr + offs, bx - a * dx, mask=m)
        tl.store(by_ptr + offs, by - a * dy, mask=m)


def run(x: torch.Tensor, y: torch.Tensor, theta_e: torch.Tensor, center_x: torch.Tensor,
        center_y: torch.Tensor) -> tuple:
    R = x.numel()
    K = theta_e.numel()
    beta_x = torch.empty_like(x)
    beta_y = torch.empty_like(y)
    BLOCK = 2048
    grid = (min(_VECTOR_CORES, triton.cdiv(R, BLOCK)),)
    # as in SinglePlane.alpha: one deflector at a time, its deflection subtracted from the rays
    for k in range(K):
        src_x, src_y = (x, y) if k == 0 else (beta_x, beta_y)
        _sis_ray_shoot[grid](x, y, src_x, src_y, theta_e, center_x, center_y, k, beta_x, beta_y, R,
                             R_MIN=1e-6, BLOCK=BLOCK)
    return beta_x, beta_y
