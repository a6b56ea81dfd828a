"""PINO Darcy physics residual: R = -div(a grad u) - f with nested central differences (FDM_Darcy)."""
import torch
import triton
import triton.language as tl

_NUM_PROGRAMS = 40  # Atlas A2 (910B): 40 vector cores


@triton.jit
def _darcy_residual(u_ptr, a_ptr, r_ptr, total, S, N, coef, f, BLOCK: tl.constexpr):
    # one flat index per inner point (b, i, j), i, j in [0, N), N = S - 4
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(total, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        valid = offs < total
        b = offs // (N * N)
        rem = offs % (N * N)
        i = rem // N + 2
        j = rem % N + 2
        c = b * S * S + i * S + j
        uc = tl.load(u_ptr + c, mask=valid, other=0.0)
        u_ip = tl.load(u_ptr + c + 2 * S, mask=valid, other=0.0)
        u_im = tl.load(u_ptr + c - 2 * S, mask=valid, other=0.0)
        u_jp = tl.load(u_ptr + c + 2, mask=valid, other=0.0)
        u_jm = tl.load(u_ptr + c - 2, mask=valid, other=0.0)
        a_ip = tl.load(a_ptr + c + S, mask=valid, other=0.0)
        a_im = tl.load(a_ptr + c - S, mask=valid, other=0.0)
        a_jp = tl.load(a_ptr + c + 1, mask=valid, other=0.0)
        a_jm = tl.load(a_ptr + c - 1, mask=valid, other=0.0)
        # (a u_x) at i +- 1 and (a u_y) at j +- 1, then their central differences
        flux = a_ip * (u_ip - uc) - a_im * (uc - u_im) + a_jp * (u_jp - uc) - a_jm * (uc - u_jm)
        tl.store(r_ptr + offs, -flux * coef - f, mask=valid)


def run(u: torch.Tensor, a: torch.Tensor, f: float) -> torch.Tensor:
    B, S, _ = u.shape
    N = S - 4
    r = torch.empty((B, N, N), device=u.device, dtype=u.dtype)
    total = B * N * N
    BLOCK = 2048
    coef = (S - 1) * (S - 1) / 4.0  # 1 / (2 dx)^2
    grid = (min(_NUM_PROGRAMS, triton.cdiv(total, BLOCK)),)
    _darcy_residual[grid](u, a, r, total, S, N, coef, f, BLOCK=BLOCK)
    return r
