# backend: cuda
# absent: common-item-recurrence
import torch
import triton
import triton.language as tl


@triton.jit
def ema(x, out, T, beta):
    row = tl.program_id(0)
    m = 0.0
    for t in range(0, T):  # an affine recurrence: a scan splits it
        m = m * beta + tl.load(x + row * T + t) * (1.0 - beta)
    tl.store(out + row, m)


@triton.jit
def string_hash_lanes(chars, offsets, out, n_items, ITEMS: tl.constexpr):
    s = tl.program_id(0) * ITEMS + tl.arange(0, ITEMS)
    live = s < n_items
    start = tl.load(offsets + s, mask=live, other=0)
    n = tl.load(offsets + s + 1, mask=live, other=0) - start
    h = tl.full([ITEMS], 2166136261, tl.uint32)
    for j in range(0, tl.max(n, axis=0)):  # the items are the lanes
        step = live & (j < n)
        c = tl.load(chars + start + j, mask=step, other=0).to(tl.uint32)
        h = tl.where(step, (h ^ c) * 16777619, h)
    tl.store(out + s, h, mask=live)


@triton.jit
def farthest(xyz, idx, N, npoint, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(xyz + b * N + offs, mask=offs < N, other=0.0)
    dist = tl.full([BLOCK], 1e10, tl.float32)
    last = b * 0
    for i in range(1, npoint):  # a tile carried across steps keeps the lanes busy
        cx = tl.load(xyz + b * N + last)
        dist = tl.minimum(dist, (x - cx) * (x - cx))
        last = tl.argmax(dist, axis=0)
        tl.store(idx + b * npoint + i, last)


def run(x, chars, offsets, xyz):
    out = torch.empty(x.shape[0], device=x.device)
    ema[(x.shape[0],)](x, out, x.shape[1], 0.9)
    h = torch.empty(offsets.numel() - 1, dtype=torch.uint32, device=chars.device)
    string_hash_lanes[(triton.cdiv(h.numel(), 128),)](chars, offsets, h, h.numel(), ITEMS=128)
    idx = torch.empty((xyz.shape[0], 64), dtype=torch.int32, device=xyz.device)
    farthest[(xyz.shape[0],)](xyz, idx, xyz.shape[1], 64, BLOCK=triton.next_power_of_2(xyz.shape[1]))
    return out, h, idx
