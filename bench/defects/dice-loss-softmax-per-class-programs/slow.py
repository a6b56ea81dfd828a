"""mmseg DiceLoss in Triton: a program per (pixel chunk, sample, class) sums that class's intersection and
denominator over its chunk; a single program then forms the Dice terms."""
import torch
import triton
import triton.language as tl

IGNORE_INDEX = 255
SMOOTH = 1.0
TILES_PER_PROGRAM = 8


@triton.jit
def _class_softmax(x):
    top = tl.max(x, axis=0)
    e = tl.exp(x - top[None, :])
    return e / tl.sum(e, axis=0)[None, :]


@triton.jit
def _load_pixel_tile(logit_ptr, target_ptr, n, start, C, HW,
                     IGNORE: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_P: tl.constexpr):
    cls = tl.arange(0, BLOCK_C)
    pix = start + tl.arange(0, BLOCK_P)
    in_img = pix < HW
    ptrs = logit_ptr + (n * C + cls[:, None]) * HW + pix[None, :]
    x = tl.load(ptrs, mask=(cls < C)[:, None] & in_img[None, :], other=-1.0e30)
    t = tl.load(target_ptr + n * HW + pix, mask=in_img, other=IGNORE)
    return x, t, in_img


@triton.jit
def dice_partials_kernel(logit_ptr, target_ptr, inter_ptr, den_ptr, C, HW, chunk, num_chunks,
                         IGNORE: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_P: tl.constexpr):
    pid = tl.program_id(0)
    n = tl.program_id(1)
    c = tl.program_id(2)
    cls = tl.arange(0, BLOCK_C)
    inter = tl.zeros([BLOCK_P], dtype=tl.float32)
    den = tl.zeros([BLOCK_P], dtype=tl.float32)
    first = pid * chunk
    for start in range(first, first + chunk, BLOCK_P):
        x, t, in_img = _load_pixel_tile(logit_ptr, target_ptr, n, start, C, HW, IGNORE, BLOCK_C, BLOCK_P)
        prob = tl.sum(tl.where(cls[:, None] == c, _class_softmax(x), 0.0), axis=0)
        label = tl.minimum(tl.maximum(t, 0), C - 1)
        hit = (label == c) & in_img
        inter += tl.where(hit & (t != IGNORE), prob, 0.0)
        den += tl.where(in_img, prob * prob, 0.0) + hit.to(tl.float32)
    row = (n * num_chunks + pid) * C + c
    tl.store(inter_ptr + row, tl.sum(inter, axis=0))
    tl.store(den_ptr + row, tl.sum(den, axis=0))


@triton.jit
def dice_finalize_kernel(inter_ptr, den_ptr, out_ptr, N, C, num_chunks, smooth,
                         BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    cls = tl.arange(0, BLOCK_C)
    cmask = cls < C
    total = 0.0
    for n in range(N):
        acc_i = tl.zeros([BLOCK_R, BLOCK_C], dtype=tl.float32)
        acc_d = tl.zeros([BLOCK_R, BLOCK_C], dtype=tl.float32)
        for r0 in range(0, num_chunks, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)
            m = (r < num_chunks)[:, None] & cmask[None, :]
            offs = (n * num_chunks + r)[:, None] * C + cls[None, :]
            acc_i += tl.load(inter_ptr + offs, mask=m, other=0.0)
            acc_d += tl.load(den_ptr + offs, mask=m, other=0.0)
        inter = tl.sum(acc_i, axis=0)
        den = tl.sum(acc_d, axis=0)
        dice = 1.0 - (2.0 * inter + smooth) / (den + smooth)
        total += tl.sum(tl.where(cmask, dice, 0.0), axis=0) / C
    tl.store(out_ptr, total / N)


def run(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    N, C, H, W = logits.shape
    HW = H * W
    BLOCK_C = triton.next_power_of_2(C)
    BLOCK_P = 128
    chunk = BLOCK_P * TILES_PER_PROGRAM
    num_chunks = triton.cdiv(HW, chunk)
    inter = torch.empty((N, num_chunks, C), device=logits.device, dtype=torch.float32)
    den = torch.empty_like(inter)
    out = torch.empty((), device=logits.device, dtype=torch.float32)
    tile = {"BLOCK_C": BLOCK_C, "num_warps": 4}
    dice_partials_kernel[(num_chunks, N, C)](logits, target, inter, den, C, HW, chunk, num_chunks,
                                             IGNORE=IGNORE_INDEX, BLOCK_P=BLOCK_P, **tile)
    dice_finalize_kernel[(1,)](inter, den, out, N, C, num_chunks, SMOOTH, BLOCK_R=128, **tile)
    return out
