"""Tile intersection of projected Gaussians (gsplat isect_tiles): counts, offsets, then the keys."""
import torch
import triton
import triton.language as tl


@triton.jit
def _tile_box(means2d, radii, g, live, tw, th):
    mx = tl.load(means2d + g * 2 + 0, mask=live, other=0.0) / 16.0
    my = tl.load(means2d + g * 2 + 1, mask=live, other=0.0) / 16.0
    rx = tl.load(radii + g * 2 + 0, mask=live, other=0)
    ry = tl.load(radii + g * 2 + 1, mask=live, other=0)
    x0 = tl.minimum(tl.maximum(tl.floor(mx - rx.to(tl.float32) / 16.0), 0.0), tw).to(tl.int32)
    x1 = tl.minimum(tl.maximum(tl.ceil(mx + rx.to(tl.float32) / 16.0), 0.0), tw).to(tl.int32)
    y0 = tl.minimum(tl.maximum(tl.floor(my - ry.to(tl.float32) / 16.0), 0.0), th).to(tl.int32)
    y1 = tl.minimum(tl.maximum(tl.ceil(my + ry.to(tl.float32) / 16.0), 0.0), th).to(tl.int32)
    count = tl.where(live & (rx > 0) & (ry > 0), (x1 - x0) * (y1 - y0), 0)
    return x0, y0, x1 - x0, count


@triton.jit
def _count_tiles(means2d, radii, counts, block_sums, N, tw, th, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    g = pid * BLOCK + tl.arange(0, BLOCK)
    live = g < N
    _, _, _, count = _tile_box(means2d, radii, g, live, tw, th)
    tl.store(counts + g, count, mask=live)
    tl.store(block_sums + pid, tl.sum(count, axis=0))


@triton.jit
def _scan_block_sums(block_sums, block_offsets, n_blocks, CHUNK: tl.constexpr):
    carry = tl.zeros((), dtype=tl.int32)
    for start in range(0, n_blocks, CHUNK):
        i = start + tl.arange(0, CHUNK)
        s = tl.load(block_sums + i, mask=i < n_blocks, other=0)
        tl.store(block_offsets + i, carry + tl.cumsum(s, axis=0) - s, mask=i < n_blocks)
        carry += tl.sum(s, axis=0)
    tl.store(block_offsets + n_blocks, carry)


@triton.jit
def _emit_isects(means2d, radii, depths, counts, block_offsets, isect_ids, flatten_ids,
                 N, tw, th, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    g = pid * BLOCK + tl.arange(0, BLOCK)
    live = g < N
    x0, y0, wx, _ = _tile_box(means2d, radii, g, live, tw, th)
    count = tl.load(counts + g, mask=live, other=0)
    base = tl.load(block_offsets + pid)
    offset = base + tl.cumsum(count, axis=0) - count
    bits = tl.load(depths + g, mask=live, other=0.0).to(tl.int32, bitcast=True).to(tl.int64) & 0xFFFFFFFF
    wx = tl.maximum(wx, 1)
    for k in range(0, tl.max(count, axis=0)):
        emit = k < count
        tile = (y0 + k // wx) * tw + x0 + k % wx
        tl.store(isect_ids + offset + k, (tile.to(tl.int64) << 32) | bits, mask=emit)
        tl.store(flatten_ids + offset + k, g, mask=emit)


def run(means2d: torch.Tensor, radii: torch.Tensor, depths: torch.Tensor, W: int, H: int):
    N = means2d.shape[0]
    tw, th = triton.cdiv(W, 16), triton.cdiv(H, 16)
    BLOCK = 256
    n_blocks = triton.cdiv(N, BLOCK)
    dev = means2d.device
    counts = torch.empty(N, device=dev, dtype=torch.int32)
    block_sums = torch.empty(n_blocks, device=dev, dtype=torch.int32)
    block_offsets = torch.zeros(n_blocks + 1, device=dev, dtype=torch.int32)
    _count_tiles[(n_blocks,)](means2d, radii, counts, block_sums, N, tw, th, BLOCK=BLOCK, num_warps=4)
    _scan_block_sums[(1,)](block_sums, block_offsets, n_blocks, CHUNK=1024, num_warps=4)
    n_isects = int(block_offsets[n_blocks].item())
    isect_ids = torch.empty(n_isects, device=dev, dtype=torch.int64)
    flatten_ids = torch.empty(n_isects, device=dev, dtype=torch.int32)
    _emit_isects[(n_blocks,)](means2d, radii, depths, counts, block_offsets, isect_ids, flatten_ids,
                              N, tw, th, BLOCK=BLOCK, num_warps=4)
    return isect_ids, flatten_ids
