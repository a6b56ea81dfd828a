"""nvblox 2-D ESDF slice: exact Euclidean distance to the nearest obstacle cell, capped at max_esdf_distance."""
import torch
import triton
import triton.language as tl

BLOCK_Y = 32
BLOCK_X = 64


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def _min_combine(a, b):
    return tl.minimum(a, b)


@triton.jit
def _row_pass(occupied, g, W, CAP, BLOCK_W: tl.constexpr):
    # horizontal distance (cells) to the nearest obstacle in the same row, capped at CAP:
    # the last obstacle to the left is a running max, the next one to the right a reversed running min
    row = tl.program_id(0)
    base = row * W
    x = tl.arange(0, BLOCK_W)
    inside = x < W
    site = tl.load(occupied + base + x, mask=inside, other=0) != 0
    last = tl.associative_scan(tl.where(site, x, -CAP), 0, _max_combine)
    nxt = tl.associative_scan(tl.where(site, x, BLOCK_W + CAP), 0, _min_combine, reverse=True)
    tl.store(g + base + x, tl.minimum(tl.minimum(x - last, nxt - x), CAP), mask=inside)


@triton.jit
def _column_pass(g, esdf, H, W, R, voxel_size, BLOCK_Y: tl.constexpr, BLOCK_X: tl.constexpr):
    # d^2(y, x) = min over |k| <= R of g(y + k, x)^2 + k^2, then metres, capped at R cells
    ys = tl.program_id(0) * BLOCK_Y + tl.arange(0, BLOCK_Y)
    xs = tl.program_id(1) * BLOCK_X + tl.arange(0, BLOCK_X)
    col_ok = xs < W
    cap = R + 1
    best = tl.full([BLOCK_Y, BLOCK_X], cap * cap, tl.int32)
    for k in range(-R, R + 1):
        yy = ys + k
        ok = ((yy >= 0) & (yy < H))[:, None] & col_ok[None, :]
        gk = tl.load(g + yy[:, None] * W + xs[None, :], mask=ok, other=cap)
        best = tl.minimum(best, gk * gk + k * k)
    dist = tl.minimum(tl.sqrt(best.to(tl.float32)), R.to(tl.float32)) * voxel_size
    out_ok = (ys < H)[:, None] & col_ok[None, :]
    tl.store(esdf + ys[:, None] * W + xs[None, :], dist, mask=out_ok)


def run(occupied: torch.Tensor, voxel_size: float, max_distance: float) -> torch.Tensor:
    H, W = occupied.shape
    R = int(round(max_distance / voxel_size))
    g = torch.empty((H, W), device=occupied.device, dtype=torch.int32)
    esdf = torch.empty((H, W), device=occupied.device, dtype=torch.float32)
    _row_pass[(H,)](occupied, g, W, R + 1, BLOCK_W=triton.next_power_of_2(W))
    _column_pass[(triton.cdiv(H, BLOCK_Y), triton.cdiv(W, BLOCK_X))](g, esdf, H, W, R, voxel_size,
                                                                   BLOCK_Y=BLOCK_Y, BLOCK_X=BLOCK_X)
    return esdf
