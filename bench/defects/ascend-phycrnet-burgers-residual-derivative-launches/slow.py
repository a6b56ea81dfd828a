"""2-D Burgers' finite-difference residual (PhyCRNet physics loss): derivative operators, then the residual."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40
BLOCK_Y = 8


@triton.jit
def _interior_tile(tile, n_ry, H, W, BLOCK_Y: tl.constexpr, BLOCK_X: tl.constexpr):
    fplane = tile // n_ry
    t = 1 + fplane // 2
    comp = fplane % 2
    rows = 1 + (tile % n_ry) * BLOCK_Y + tl.arange(0, BLOCK_Y)
    cols = 1 + tl.arange(0, BLOCK_X)
    mask = (rows < H - 1)[:, None] & (cols < W - 1)[None, :]
    off = (t * 2 + comp) * H * W + rows[:, None] * W + cols[None, :]
    out = fplane * (H - 2) * (W - 2) + (rows[:, None] - 1) * (W - 2) + (cols[None, :] - 1)
    return off, out, mask


@triton.jit
def _central_diff(src, dst, n_tiles, n_ry, H, W, step, scale,
                  NPROG: tl.constexpr, BLOCK_Y: tl.constexpr, BLOCK_X: tl.constexpr):
    for tile in range(tl.program_id(0), n_tiles, NPROG):
        off, out, mask = _interior_tile(tile, n_ry, H, W, BLOCK_Y, BLOCK_X)
        hi = tl.load(src + off + step, mask=mask, other=0.0)
        lo = tl.load(src + off - step, mask=mask, other=0.0)
        tl.store(dst + out, (hi - lo) * scale, mask=mask)


@triton.jit
def _laplace(src, dst, n_tiles, n_ry, H, W, scale,
             NPROG: tl.constexpr, BLOCK_Y: tl.constexpr, BLOCK_X: tl.constexpr):
    for tile in range(tl.program_id(0), n_tiles, NPROG):
        off, out, mask = _interior_tile(tile, n_ry, H, W, BLOCK_Y, BLOCK_X)
        c = tl.load(src + off, mask=mask, other=0.0)
        s = tl.load(src + off - 1, mask=mask, other=0.0) + tl.load(src + off + 1, mask=mask, other=0.0)
        s += tl.load(src + off - W, mask=mask, other=0.0) + tl.load(src + off + W, mask=mask, other=0.0)
        tl.store(dst + out, (s - 4.0 * c) * scale, mask=mask)


@triton.jit
def _combine(uv, d_t, d_x, d_y, lap, res, n_tiles, n_ry, H, W, nu,
             NPROG: tl.constexpr, BLOCK_Y: tl.constexpr, BLOCK_X: tl.constexpr):
    for tile in range(tl.program_id(0), n_tiles, NPROG):
        off, out, mask = _interior_tile(tile, n_ry, H, W, BLOCK_Y, BLOCK_X)
        comp = (tile // n_ry) % 2
        u = tl.load(uv + off - comp * H * W, mask=mask, other=0.0)
        v = tl.load(uv + off + (1 - comp) * H * W, mask=mask, other=0.0)
        r = tl.load(d_t + out, mask=mask, other=0.0)
        r += u * tl.load(d_x + out, mask=mask, other=0.0)
        r += v * tl.load(d_y + out, mask=mask, other=0.0)
        r -= nu * tl.load(lap + out, mask=mask, other=0.0)
        tl.store(res + out, r, mask=mask)


def run(uv: torch.Tensor, dt: float, dx: float, nu: float) -> torch.Tensor:
    T, _, H, W = uv.shape
    shape = (T - 2, 2, H - 2, W - 2)
    d_t, d_x, d_y, lap, res = (torch.empty(shape, device=uv.device, dtype=torch.float32) for _ in range(5))
    n_ry = triton.cdiv(H - 2, BLOCK_Y)
    n_tiles = (T - 2) * 2 * n_ry
    nprog = min(n_tiles, NUM_CORES)
    cfg = dict(NPROG=nprog, BLOCK_Y=BLOCK_Y, BLOCK_X=triton.next_power_of_2(W - 2))
    grid = (nprog,)
    _central_diff[grid](uv, d_t, n_tiles, n_ry, H, W, 2 * H * W, 0.5 / dt, **cfg)
    _central_diff[grid](uv, d_x, n_tiles, n_ry, H, W, 1, 0.5 / dx, **cfg)
    _central_diff[grid](uv, d_y, n_tiles, n_ry, H, W, W, 0.5 / dx, **cfg)
    _laplace[grid](uv, lap, n_tiles, n_ry, H, W, 1.0 / (dx * dx), **cfg)
    _combine[grid](uv, d_t, d_x, d_y, lap, res, n_tiles, n_ry, H, W, nu, **cfg)
    return res
