"""VP8 simple loop filter (libvpx), vertical-edge pass: MB edges with mblimit, inner edges with blimit."""
import torch
import triton
import triton.language as tl

BM = 16  # macroblocks per program


@triton.jit
def _clamp_sc(v):
    return tl.minimum(tl.maximum(v, -128), 127)


@triton.jit
def _simple_lf_vertical(src, dst, level, skip_inner, stride, width, mb_cols, sharpness, BM: tl.constexpr):
    mb_row = tl.program_id(1)
    mb = tl.program_id(0) * BM + tl.arange(0, BM)             # MB columns; mb == mb_cols is the right border
    mb_ok = mb < mb_cols
    lvl = tl.load(level + mb_row * mb_cols + mb, mask=mb_ok, other=0)
    no_inner = tl.load(skip_inner + mb_row * mb_cols + mb, mask=mb_ok, other=1)
    # vp8_loop_filter_update_sharpness
    interior = (lvl >> (sharpness > 0).to(tl.int32)) >> (sharpness > 4).to(tl.int32)
    interior = tl.where(sharpness > 0, tl.minimum(interior, 9 - sharpness), interior)
    interior = tl.maximum(interior, 1)
    mblim = (lvl + 2) * 2 + interior
    blim = lvl * 2 + interior

    j = tl.arange(0, 4)                                       # edge 0 = MB edge, 1..3 = inner edges
    is_mb_edge = j[None, :] == 0
    limit = tl.where(is_mb_edge, mblim[:, None], blim[:, None])
    active = mb_ok[:, None] & (lvl[:, None] > 0) & tl.where(is_mb_edge, mb[:, None] > 0, no_inner[:, None] == 0)
    x = mb[:, None] * 16 + j[None, :] * 4                     # q0 column of each edge, [BM, 4]
    rows = mb_row * 16 + tl.arange(0, 16)
    offs = rows[:, None, None] * stride + x[None, :, :]       # [16 rows, BM, 4 edges]
    # every pixel column is one of p1 p0 q0 q1 of exactly one edge: all four are stored
    in_p1 = ((x >= 2) & (x - 2 < width))[None, :, :]
    in_p0 = ((x >= 1) & (x - 1 < width))[None, :, :]
    in_q0 = (x < width)[None, :, :]
    in_q1 = (x + 1 < width)[None, :, :]

    p1 = tl.load(src + offs - 2, mask=in_p1, other=0).to(tl.int32)
    p0 = tl.load(src + offs - 1, mask=in_p0, other=0).to(tl.int32)
    q0 = tl.load(src + offs, mask=in_q0, other=0).to(tl.int32)
    q1 = tl.load(src + offs + 1, mask=in_q1, other=0).to(tl.int32)
    flat = (tl.abs(p0 - q0) * 2 + (tl.abs(p1 - q1) >> 1)) <= limit[None, :, :]
    ps1 = p1 - 128
    ps0 = p0 - 128
    qs0 = q0 - 128
    qs1 = q1 - 128
    f = _clamp_sc(_clamp_sc(ps1 - qs1) + 3 * (qs0 - ps0))
    f = tl.where(flat & active[None, :, :], f, 0)
    f1 = _clamp_sc(f + 4) >> 3
    f2 = _clamp_sc(f + 3) >> 3
    tl.store(dst + offs - 2, p1.to(tl.uint8), mask=in_p1)
    tl.store(dst + offs - 1, (_clamp_sc(ps0 + f2) + 128).to(tl.uint8), mask=in_p0)
    tl.store(dst + offs, (_clamp_sc(qs0 - f1) + 128).to(tl.uint8), mask=in_q0)
    tl.store(dst + offs + 1, q1.to(tl.uint8), mask=in_q1)


def run(frame: torch.Tensor, level: torch.Tensor, skip_inner: torch.Tensor, sharpness: int) -> torch.Tensor:
    h, w = frame.shape
    mb_rows, mb_cols = h // 16, w // 16
    out = torch.empty_like(frame)
    grid = (triton.cdiv(mb_cols + 1, BM), mb_rows)
    _simple_lf_vertical[grid](frame, out, level, skip_inner, frame.stride(0), w, mb_cols, sharpness,
                              BM=BM, num_warps=4)
    return out
