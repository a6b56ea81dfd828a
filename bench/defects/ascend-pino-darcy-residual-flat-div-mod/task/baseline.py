"""PINO Darcy physics residual: R = -div(a grad u) - f with nested central differences (FDM_Darcy)."""
import torch
import triton
import triton.language as tl

_NUM_PROGRAMS = 40  # Atlas A2 (910B): 40 vector cores


@triton.jit
def _darcy_residual(u_ptr, a_ptr, r_ptr, B, S, N, coef, f, BH: tl.constexpr, BW: tl.constexpr):
    # 2-D tiles of the inner grid (b, i, j), i, j in [0, N), N = S - 4
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_rb = tl.cdiv(N, BH)
    n_cb = tl.cdiv(N, BW)
    for t in range(pid, B * n_rb * n_cb, nprog):
        b = t // (n_rb * n_cb)
        rb = (t // n_cb) % n_rb
        cb = t % n_cb
        rows = rb * BH + tl.arange(0, BH)
        cols = cb * BW + tl.arange(0, BW)
        valid = (rows < N)[:, None] & (cols < N)[None, :]
        c = b * S * S + (rows[:, None] + 2) * S + (cols[None, :] + 2)
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
        o = b * N * N + rows[:, None] * N + cols[None, :]
        tl.store(r_ptr + o, -flux * coef - f, mask=valid)


def run(u: torch.Tensor, a: torch.Tensor, f: float) -> torch.Tensor:
    B, S, _ = u.shape
    N = S - 4
    r = torch.empty((B, N, N), device=u.device, dtype=u.dtype)
    BW = min(512, triton.next_power_of_2(N))
    BH = min(max(1, 2048 // BW), triton.next_power_of_2(N))
    coef = (S - 1) * (S - 1) / 4.0  # 1 / (2 dx)^2
    n_tiles = B * triton.cdiv(N, BH) * triton.cdiv(N, BW)
    grid = (min(_NUM_PROGRAMS, n_tiles),)
    _darcy_residual[grid](u, a, r, B, S, N, coef, f, BH=BH, BW=BW)
    return r
