"""HunyuanVideo CausalConv3d replicate padding: (W: 1, 1), (H: 1, 1), (T: 2, 0)."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _pad_row(src_row, dst_row, cols, cm, W):
    tl.store(dst_row + 1 + cols, tl.load(src_row + cols, mask=cm), mask=cm)
    tl.store(dst_row, tl.load(src_row))
    tl.store(dst_row + W + 1, tl.load(src_row + W - 1))


@triton.jit
def _causal_pad(x, out, BC, T, H, W, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    TP = T + 2
    HP = H + 2
    WP = W + 2
    cols = tl.arange(0, BLOCK_W)
    cm = cols < W
    rows = tl.arange(0, BLOCK_H)
    for plane in range(pid, BC * TP, nprog):
        bc = plane // TP
        ts = tl.maximum(plane - bc * TP - 2, 0)
        src = x + (bc * T + ts) * H * W
        dst = out + plane * HP * WP
        for h0 in range(0, H, BLOCK_H):
            r = h0 + rows
            rm = r < H
            m = rm[:, None] & cm[None, :]
            tile = tl.load(src + r[:, None] * W + cols[None, :], mask=m)
            d = dst + (r + 1) * WP
            tl.store(d[:, None] + 1 + cols[None, :], tile, mask=m)
            tl.store(d, tl.load(src + r * W, mask=rm), mask=rm)
            tl.store(d + W + 1, tl.load(src + r * W + W - 1, mask=rm), mask=rm)
        _pad_row(src, dst, cols, cm, W)
        _pad_row(src + (H - 1) * W, dst + (H + 1) * WP, cols, cm, W)


def run(x: torch.Tensor) -> torch.Tensor:
    B, C, T, H, W = x.shape
    out = torch.empty((B, C, T + 2, H + 2, W + 2), device=x.device, dtype=x.dtype)
    planes = B * C * (T + 2)
    BLOCK_W = triton.next_power_of_2(W)
    BLOCK_H = max(1, min(triton.next_power_of_2(H), 8192 // BLOCK_W))
    _causal_pad[(min(NUM_CORES, planes),)](x, out, B * C, T, H, W, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W)
    return out
