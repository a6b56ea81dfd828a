"""Ray shooting through a population of SIS deflectors (lenstronomy SinglePlane.ray_shooting, ['SIS'] * K)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _sis_ray_shoot(x_ptr, y_ptr, te_ptr, cx_ptr, cy_ptr, bx_ptr, by_ptr, R, K,
                   R_MIN: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(R, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < R
        x = tl.load(x_ptr + offs, mask=m, other=0.0)
        y = tl.load(y_ptr + offs, mask=m, other=0.0)
        ax = tl.zeros([BLOCK], dtype=tl.float32)
        ay = tl.zeros([BLOCK], dtype=tl.float32)
        for k in range(K):
            te = tl.load(te_ptr + k)
            dx = x - tl.load(cx_ptr + k)
            dy = y - tl.load(cy_ptr + k)
            r = tl.maximum(tl.sqrt(dx * dx + dy * dy), R_MIN)
            a = te / r
            ax += a * dx
            ay += a * dy
        tl.store(bx_ptr + offs, x - ax, mask=m)
        tl.store(by_ptr + offs, y - ay, mask=m)


def run(x: torch.Tensor, y: torch.Tensor, theta_e: torch.Tensor, center_x: torch.Tensor,
        center_y: torch.Tensor) -> tuple:
    R = x.numel()
    K = theta_e.numel()
    beta_x = torch.empty_like(x)
    beta_y = torch.empty_like(y)
    BLOCK = 2048
    grid = (min(_VECTOR_CORES, triton.cdiv(R, BLOCK)),)
    _sis_ray_shoot[grid](x, y, theta_e, center_x, center_y, beta_x, beta_y, R, K,
                         R_MIN=1e-6, BLOCK=BLOCK)
    return beta_x, beta_y
