"""2-D Burgers' finite-difference residual (PhyCRNet physics loss): one fused stencil pass."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40
BLOCK_Y = 8


@triton.jit
def _component(f, off, u, v, step_t, W, inv_2dt, inv_2dx, inv_dx2, nu, mask):
    c = tl.load(f + off, mask=mask, other=0.0)
    xm = tl.load(f + off - 1, mask=mask, other=0.0)
    xp = tl.load(f + off + 1, mask=mask, other=0.0)
    ym = tl.load(f + off - W, mask=mask, other=0.0)
    yp = tl.load(f + off + W, mask=mask, other=0.0)
    tm = tl.load(f + off - step_t, mask=mask, other=0.0)
    tp = tl.load(f + off + step_t, mask=mask, other=0.0)
    d_t = (tp - tm) * inv_2dt
    d_x = (xp - xm) * inv_2dx
    d_y = (yp - ym) * inv_2dx
    lap = (xp + xm + yp + ym - 4.0 * c) * inv_dx2
    return d_t + u * d_x + v * d_y - nu * lap


@triton.jit
def _burgers_residual(uv, res, T, H, W, inv_2dt, inv_2dx, inv_dx2, nu,
                      NPROG: tl.constexpr, BLOCK_Y: tl.constexpr, BLOCK_X: tl.constexpr):
    pid = tl.program_id(0)
    n_ry = tl.cdiv(H - 2, BLOCK_Y)
    n_tiles = (T - 2) * n_ry
    plane = H * W
    plane_out = (H - 2) * (W - 2)
    cols = 1 + tl.arange(0, BLOCK_X)
    for tile in range(pid, n_tiles, NPROG):
        t = 1 + tile // n_ry
        rows = 1 + (tile % n_ry) * BLOCK_Y + tl.arange(0, BLOCK_Y)
        mask = (rows < H - 1)[:, None] & (cols < W - 1)[None, :]
        off = t * 2 * plane + rows[:, None] * W + cols[None, :]
        u = tl.load(uv + off, mask=mask, other=0.0)
        v = tl.load(uv + plane + off, mask=mask, other=0.0)
        r_u = _component(uv, off, u, v, 2 * plane, W, inv_2dt, inv_2dx, inv_dx2, nu, mask)
        r_v = _component(uv + plane, off, u, v, 2 * plane, W, inv_2dt, inv_2dx, inv_dx2, nu, mask)
        out = (t - 1) * 2 * plane_out + (rows[:, None] - 1) * (W - 2) + (cols[None, :] - 1)
        tl.store(res + out, r_u, mask=mask)
        tl.store(res + plane_out + out, r_v, mask=mask)


def run(uv: torch.Tensor, dt: float, dx: float, nu: float) -> torch.Tensor:
    T, _, H, W = uv.shape
    res = torch.empty((T - 2, 2, H - 2, W - 2), device=uv.device, dtype=torch.float32)
    n_tiles = (T - 2) * triton.cdiv(H - 2, BLOCK_Y)
    nprog = min(n_tiles, NUM_CORES)
    _burgers_residual[(nprog,)](uv, res, T, H, W, 0.5 / dt, 0.5 / dx, 1.0 / (dx * dx), nu,
                                NPROG=nprog, BLOCK_Y=BLOCK_Y, BLOCK_X=triton.next_power_of_2(W - 2))
    return res
