"""AV1 Wiener loop restoration (dav1d wiener_filter, 10-bit) over a luma plane of restoration units."""
import torch
import triton
import triton.language as tl

BLOCK_R = 16
BLOCK_C = 64  # both divide every AV1 luma unit size (64, 128, 256): a tile never straddles two units


@triton.jit
def _wiener(src, taps, dst, h, w, stride, unit, n_ur, n_uc,
            BD: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    r0 = tl.program_id(1) * BLOCK_R
    c0 = tl.program_id(0) * BLOCK_C
    u = tl.minimum(r0 // unit, n_ur - 1) * n_uc + tl.minimum(c0 // unit, n_uc - 1)
    rows = r0 + tl.arange(0, BLOCK_R)
    cols = c0 + tl.arange(0, BLOCK_C)
    ok = (rows < h)[:, None] & (cols < w)[None, :]
    t = taps + u * 6
    fh0 = tl.load(t)
    fh1 = tl.load(t + 1)
    fh2 = tl.load(t + 2)
    fv0 = tl.load(t + 3)
    fv1 = tl.load(t + 4)
    fv2 = tl.load(t + 5)
    fh3 = 128 - 2 * (fh0 + fh1 + fh2)
    fv3 = 128 - 2 * (fv0 + fv1 + fv2)
    c_m3 = tl.maximum(cols - 3, 0)[None, :]
    c_m2 = tl.maximum(cols - 2, 0)[None, :]
    c_m1 = tl.maximum(cols - 1, 0)[None, :]
    c_0 = tl.minimum(cols, w - 1)[None, :]
    c_p1 = tl.minimum(cols + 1, w - 1)[None, :]
    c_p2 = tl.minimum(cols + 2, w - 1)[None, :]
    c_p3 = tl.minimum(cols + 3, w - 1)[None, :]
    acc = tl.zeros([BLOCK_R, BLOCK_C], dtype=tl.int32)
    for k in tl.static_range(7):
        rr = tl.minimum(tl.maximum(rows + (k - 3), 0), h - 1)
        line = src + rr[:, None] * stride
        s = (1 << (BD + 6)) \
            + fh0 * (tl.load(line + c_m3).to(tl.int32) + tl.load(line + c_p3).to(tl.int32)) \
            + fh1 * (tl.load(line + c_m2).to(tl.int32) + tl.load(line + c_p2).to(tl.int32)) \
            + fh2 * (tl.load(line + c_m1).to(tl.int32) + tl.load(line + c_p1).to(tl.int32)) \
            + fh3 * tl.load(line + c_0).to(tl.int32)
        hor = tl.minimum(tl.maximum((s + 4) >> 3, 0), (1 << 15) - 1)
        if k == 0 or k == 6:
            fv = fv0
        elif k == 1 or k == 5:
            fv = fv1
        elif k == 2 or k == 4:
            fv = fv2
        else:
            fv = fv3
        acc += fv * hor
    out = tl.minimum(tl.maximum((acc - (1 << (BD + 10)) + (1 << 10)) >> 11, 0), (1 << BD) - 1)
    tl.store(dst + rows[:, None] * stride + cols[None, :], out.to(tl.int16), mask=ok)


def run(plane: torch.Tensor, taps: torch.Tensor, unit: int) -> torch.Tensor:
    h, w = plane.shape
    n_ur, n_uc = max((h + unit // 2) // unit, 1), max((w + unit // 2) // unit, 1)
    out = torch.empty_like(plane)
    grid = (triton.cdiv(w, BLOCK_C), triton.cdiv(h, BLOCK_R))
    _wiener[grid](plane, taps, out, h, w, plane.stride(0), unit, n_ur, n_uc,
                  BD=10, BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C, num_warps=4)
    return out
