# backend: cuda
# absent: common-item-against-shared-tile
import torch
import triton
import triton.language as tl


@triton.jit
def nearest_blocked(src, dst, out, n_src, n_dst, ITEMS: tl.constexpr, BLOCK: tl.constexpr):
    q = tl.program_id(0) * ITEMS + tl.arange(0, ITEMS)
    qx = tl.load(src + q * 2, mask=q < n_src, other=0.0)[:, None]
    qy = tl.load(src + q * 2 + 1, mask=q < n_src, other=0.0)[:, None]
    best = tl.full([ITEMS, BLOCK], float("inf"), tl.float32)
    for start in range(0, n_dst, BLOCK):
        j = start + tl.arange(0, BLOCK)
        ok = j < n_dst
        dx = tl.load(dst + j * 2, mask=ok, other=float("inf"))[None, :] - qx
        dy = tl.load(dst + j * 2 + 1, mask=ok, other=float("inf"))[None, :] - qy
        best = tl.minimum(best, dx * dx + dy * dy)
    tl.store(out + q, tl.min(best, axis=1), mask=q < n_src)


@triton.jit
def neighbour_sum(pos, nbr, out, K, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    k = tl.arange(0, BLOCK)
    j = tl.load(nbr + i * K + k, mask=k < K, other=0)
    d = tl.load(pos + j, mask=k < K, other=0.0) - tl.load(pos + i)
    tl.store(out + i, tl.sum(d * d, axis=0))


@triton.jit
def row_norm(x, out, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * N + cols, mask=cols < N, other=0.0)
    scale = tl.load(out + row)
    tl.store(out + row, scale * tl.sqrt(tl.sum(v * v, axis=0)))


def run(src, dst, pos, nbr, x):
    out = torch.empty(src.shape[0], device=src.device)
    nearest_blocked[(triton.cdiv(src.shape[0], 64),)](src, dst, out, src.shape[0], dst.shape[0], ITEMS=64, BLOCK=64)
    nsum = torch.empty(pos.shape[0], device=pos.device)
    neighbour_sum[(pos.shape[0],)](pos, nbr, nsum, nbr.shape[1], BLOCK=32)
    norms = torch.ones(x.shape[0], device=x.device)
    row_norm[(x.shape[0],)](x, norms, x.shape[1], BLOCK=1024)
    return out, nsum, norms
