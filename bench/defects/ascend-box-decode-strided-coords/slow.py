"""torchvision BoxCoder.decode_single for triton-ascend: a persistent grid over the 910B vector cores
walks the proposals 1,024 at a time and decodes each block of (anchor, delta) pairs into boxes."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _load_xyxy(ptr, idx, n, BLOCK: tl.constexpr):
    m = idx < n
    c0 = tl.load(ptr + idx * 4 + 0, mask=m, other=0.0)
    c1 = tl.load(ptr + idx * 4 + 1, mask=m, other=0.0)
    c2 = tl.load(ptr + idx * 4 + 2, mask=m, other=0.0)
    c3 = tl.load(ptr + idx * 4 + 3, mask=m, other=0.0)
    return c0, c1, c2, c3


@triton.jit
def _store_xyxy(ptr, idx, n, x1, y1, x2, y2, BLOCK: tl.constexpr):
    m = idx < n
    tl.store(ptr + idx * 4 + 0, x1, mask=m)
    tl.store(ptr + idx * 4 + 1, y1, mask=m)
    tl.store(ptr + idx * 4 + 2, x2, mask=m)
    tl.store(ptr + idx * 4 + 3, y2, mask=m)


@triton.jit
def box_decode_kernel(deltas_ptr, anchors_ptr, out_ptr, n, n_blocks, inv_wx, inv_wy, inv_ww, inv_wh, clip,
                      NUM_PROGS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    for blk in range(pid, n_blocks, NUM_PROGS):
        idx = blk * BLOCK + tl.arange(0, BLOCK)
        ax1, ay1, ax2, ay2 = _load_xyxy(anchors_ptr, idx, n, BLOCK)
        dx, dy, dw, dh = _load_xyxy(deltas_ptr, idx, n, BLOCK)
        widths = ax2 - ax1
        heights = ay2 - ay1
        ctr_x = ax1 + 0.5 * widths
        ctr_y = ay1 + 0.5 * heights
        dw = tl.minimum(dw * inv_ww, clip)
        dh = tl.minimum(dh * inv_wh, clip)
        px = dx * inv_wx * widths + ctr_x
        py = dy * inv_wy * heights + ctr_y
        half_w = 0.5 * tl.exp(dw) * widths
        half_h = 0.5 * tl.exp(dh) * heights
        _store_xyxy(out_ptr, idx, n, px - half_w, py - half_h, px + half_w, py + half_h, BLOCK)


def run(deltas: torch.Tensor, anchors: torch.Tensor, weights: tuple, clip: float) -> torch.Tensor:
    n = deltas.shape[0]
    out = torch.empty_like(deltas)
    block = 1024
    n_blocks = triton.cdiv(n, block)
    num_progs = min(NUM_VECTOR_CORES, n_blocks)
    wx, wy, ww, wh = weights
    box_decode_kernel[(num_progs,)](deltas, anchors, out, n, n_blocks, 1.0 / wx, 1.0 / wy, 1.0 / ww, 1.0 / wh,
                                    clip, NUM_PROGS=num_progs, BLOCK=block)
    return out
