"""AV1 deblocking, vertical-edge pass (libaom aom_highbd_lpf_vertical_{4,8,14}) of a 10-bit luma plane."""
import torch
import triton
import triton.language as tl

BLOCK_R = 16  # pixel rows per program
BLOCK_E = 16  # edge slots (one every 4 columns) per program


@triton.jit
def _copy_plane(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)


@triton.jit
def _clamp10(v):
    return tl.minimum(tl.maximum(v, -512), 511)


@triton.jit
def _lpf_vertical(src, dst, edge_len, level, h, stride, nbx, sharpness,
                  BLOCK_R: tl.constexpr, BLOCK_E: tl.constexpr):
    rows = tl.program_id(1) * BLOCK_R + tl.arange(0, BLOCK_R)[:, None]
    slot = tl.program_id(0) * BLOCK_E + tl.arange(0, BLOCK_E)[None, :]
    inside = (rows < h) & (slot < nbx)
    blk = (rows >> 2) * nbx + slot
    n = tl.load(edge_len + blk, mask=inside, other=0).to(tl.int32)
    lvl = tl.load(level + blk, mask=inside, other=0).to(tl.int32)
    on4 = n > 0
    on8 = n >= 8
    on14 = n == 14
    pix = src + rows * stride + slot * 4
    p0 = tl.load(pix - 1, mask=on4, other=0).to(tl.int32)
    q0 = tl.load(pix, mask=on4, other=0).to(tl.int32)
    p1 = tl.load(pix - 2, mask=on4, other=0).to(tl.int32)
    q1 = tl.load(pix + 1, mask=on4, other=0).to(tl.int32)
    p2 = tl.load(pix - 3, mask=on8, other=0).to(tl.int32)
    q2 = tl.load(pix + 2, mask=on8, other=0).to(tl.int32)
    p3 = tl.load(pix - 4, mask=on8, other=0).to(tl.int32)
    q3 = tl.load(pix + 3, mask=on8, other=0).to(tl.int32)
    p4 = tl.load(pix - 5, mask=on14, other=0).to(tl.int32)
    q4 = tl.load(pix + 4, mask=on14, other=0).to(tl.int32)
    p5 = tl.load(pix - 6, mask=on14, other=0).to(tl.int32)
    q5 = tl.load(pix + 5, mask=on14, other=0).to(tl.int32)
    p6 = tl.load(pix - 7, mask=on14, other=0).to(tl.int32)
    q6 = tl.load(pix + 6, mask=on14, other=0).to(tl.int32)

    # limits of the level (libaom update_sharpness), scaled to 10 bits
    lim = lvl >> ((sharpness > 0).to(tl.int32) + (sharpness > 4).to(tl.int32))
    lim = tl.where(sharpness > 0, tl.minimum(lim, 9 - sharpness), lim)
    lim = tl.maximum(lim, 1)
    lim_i = lim << 2
    lim_e = (2 * (lvl + 2) + lim) << 2
    thr_h = (lvl >> 4) << 2

    mask = (tl.abs(p1 - p0) <= lim_i) & (tl.abs(q1 - q0) <= lim_i) \
        & (tl.abs(p0 - q0) * 2 + (tl.abs(p1 - q1) >> 1) <= lim_e)
    mask8 = mask & (tl.abs(p3 - p2) <= lim_i) & (tl.abs(p2 - p1) <= lim_i) \
        & (tl.abs(q2 - q1) <= lim_i) & (tl.abs(q3 - q2) <= lim_i)
    mask = tl.where(on8, mask8, mask)
    flat = on8 & (tl.abs(p1 - p0) <= 4) & (tl.abs(q1 - q0) <= 4) & (tl.abs(p2 - p0) <= 4) \
        & (tl.abs(q2 - q0) <= 4) & (tl.abs(p3 - p0) <= 4) & (tl.abs(q3 - q0) <= 4)
    flat2 = on14 & (tl.abs(p4 - p0) <= 4) & (tl.abs(q4 - q0) <= 4) & (tl.abs(p5 - p0) <= 4) \
        & (tl.abs(q5 - q0) <= 4) & (tl.abs(p6 - p0) <= 4) & (tl.abs(q6 - q0) <= 4)
    use14 = mask & flat & flat2
    use8 = mask & flat & (flat2 == 0)

    # filter4
    ps1 = p1 - 512
    ps0 = p0 - 512
    qs0 = q0 - 512
    qs1 = q1 - 512
    hev = (tl.abs(p1 - p0) > thr_h) | (tl.abs(q1 - q0) > thr_h)
    f = tl.where(hev, _clamp10(ps1 - qs1), 0)
    f = tl.where(mask, _clamp10(f + 3 * (qs0 - ps0)), 0)
    f1 = _clamp10(f + 4) >> 3
    f2 = _clamp10(f + 3) >> 3
    f4q0 = _clamp10(qs0 - f1) + 512
    f4p0 = _clamp10(ps0 + f2) + 512
    f = tl.where(hev, 0, (f1 + 1) >> 1)
    f4q1 = _clamp10(qs1 - f) + 512
    f4p1 = _clamp10(ps1 + f) + 512

    # filter8, 7-tap [1, 1, 1, 2, 1, 1, 1]
    f8p2 = (3 * p3 + 2 * p2 + p1 + p0 + q0 + 4) >> 3
    f8p1 = (2 * p3 + p2 + 2 * p1 + p0 + q0 + q1 + 4) >> 3
    f8p0 = (p3 + p2 + p1 + 2 * p0 + q0 + q1 + q2 + 4) >> 3
    f8q0 = (p2 + p1 + p0 + 2 * q0 + q1 + q2 + q3 + 4) >> 3
    f8q1 = (p1 + p0 + q0 + 2 * q1 + q2 + 2 * q3 + 4) >> 3
    f8q2 = (p0 + q0 + q1 + 2 * q2 + 3 * q3 + 4) >> 3

    # filter14, 13-tap [1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1]
    f14p5 = (7 * p6 + 2 * p5 + 2 * p4 + p3 + p2 + p1 + p0 + q0 + 8) >> 4
    f14p4 = (5 * p6 + 2 * p5 + 2 * p4 + 2 * p3 + p2 + p1 + p0 + q0 + q1 + 8) >> 4
    f14p3 = (4 * p6 + p5 + 2 * p4 + 2 * p3 + 2 * p2 + p1 + p0 + q0 + q1 + q2 + 8) >> 4
    f14p2 = (3 * p6 + p5 + p4 + 2 * p3 + 2 * p2 + 2 * p1 + p0 + q0 + q1 + q2 + q3 + 8) >> 4
    f14p1 = (2 * p6 + p5 + p4 + p3 + 2 * p2 + 2 * p1 + 2 * p0 + q0 + q1 + q2 + q3 + q4 + 8) >> 4
    f14p0 = (p6 + p5 + p4 + p3 + p2 + 2 * p1 + 2 * p0 + 2 * q0 + q1 + q2 + q3 + q4 + q5 + 8) >> 4
    f14q0 = (p5 + p4 + p3 + p2 + p1 + 2 * p0 + 2 * q0 + 2 * q1 + q2 + q3 + q4 + q5 + q6 + 8) >> 4
    f14q1 = (p4 + p3 + p2 + p1 + p0 + 2 * q0 + 2 * q1 + 2 * q2 + q3 + q4 + q5 + 2 * q6 + 8) >> 4
    f14q2 = (p3 + p2 + p1 + p0 + q0 + 2 * q1 + 2 * q2 + 2 * q3 + q4 + q5 + 3 * q6 + 8) >> 4
    f14q3 = (p2 + p1 + p0 + q0 + q1 + 2 * q2 + 2 * q3 + 2 * q4 + q5 + 4 * q6 + 8) >> 4
    f14q4 = (p1 + p0 + q0 + q1 + q2 + 2 * q3 + 2 * q4 + 2 * q5 + 5 * q6 + 8) >> 4
    f14q5 = (p0 + q0 + q1 + q2 + q3 + 2 * q4 + 2 * q5 + 7 * q6 + 8) >> 4

    out = dst + rows * stride + slot * 4
    tl.store(out - 1, tl.where(use14, f14p0, tl.where(use8, f8p0, f4p0)).to(tl.int16), mask=on4)
    tl.store(out, tl.where(use14, f14q0, tl.where(use8, f8q0, f4q0)).to(tl.int16), mask=on4)
    tl.store(out - 2, tl.where(use14, f14p1, tl.where(use8, f8p1, f4p1)).to(tl.int16), mask=on4)
    tl.store(out + 1, tl.where(use14, f14q1, tl.where(use8, f8q1, f4q1)).to(tl.int16), mask=on4)
    tl.store(out - 3, tl.where(use14, f14p2, tl.where(use8, f8p2, p2)).to(tl.int16), mask=on8)
    tl.store(out + 2, tl.where(use14, f14q2, tl.where(use8, f8q2, q2)).to(tl.int16), mask=on8)
    tl.store(out - 4, tl.where(use14, f14p3, p3).to(tl.int16), mask=on14)
    tl.store(out + 3, tl.where(use14, f14q3, q3).to(tl.int16), mask=on14)
    tl.store(out - 5, tl.where(use14, f14p4, p4).to(tl.int16), mask=on14)
    tl.store(out + 4, tl.where(use14, f14q4, q4).to(tl.int16), mask=on14)
    tl.store(out - 6, tl.where(use14, f14p5, p5).to(tl.int16), mask=on14)
    tl.store(out + 5, tl.where(use14, f14q5, q5).to(tl.int16), mask=on14)


def run(plane: torch.Tensor, edge_len: torch.Tensor, level: torch.Tensor, sharpness: int) -> torch.Tensor:
    h, w = plane.shape
    nbx = w // 4
    out = torch.empty_like(plane)
    n = plane.numel()
    _copy_plane[(triton.cdiv(n, 4096),)](plane, out, n, BLOCK=4096)  # pixels no edge reaches pass through
    grid = (triton.cdiv(nbx, BLOCK_E), triton.cdiv(h, BLOCK_R))
    _lpf_vertical[grid](plane, out, edge_len, level, h, plane.stride(0), nbx, sharpness,
                        BLOCK_R=BLOCK_R, BLOCK_E=BLOCK_E)
    return out
