"""x264 lowres diamond motion search (OpenCL lookahead hierarchical_motion) for every 8x8 lowres block."""
import torch
import triton
import triton.language as tl

MBS = 32          # 8x8 blocks per program
COST_MASK = 16383  # LOWRES_COST_MASK


@triton.jit
def _sad_cost(fenc_blk, fref, ref_base, mx, my, px, py, bits, lam, live, ref_stride, pix_off):
    """SAD of the [MBS, 64] source tile against the reference at (mx, my), plus the MV cost."""
    addr = ref_base + my * ref_stride + mx
    ref = tl.load(fref + addr[:, None] + pix_off[None, :], mask=live[:, None], other=0).to(tl.int32)
    sad = tl.sum(tl.abs(fenc_blk - ref), axis=1)
    dx = tl.abs(mx - px) * 4
    dy = tl.abs(my - py) * 4
    mvc = tl.load(bits + dx, mask=live, other=0) + tl.load(bits + dy, mask=live, other=0)
    return sad + lam * mvc


@triton.jit
def _dia_try(fenc_blk, fref, ref_base, bx, by, bcost, live, px, py, min_x, max_x, min_y, max_y,
             bits, lam, ref_stride, pix_off):
    """One diamond step: the best of the four neighbours replaces best if it is cheaper."""
    c0 = _sad_cost(fenc_blk, fref, ref_base, bx, by - 1, px, py, bits, lam, live, ref_stride, pix_off)
    c1 = _sad_cost(fenc_blk, fref, ref_base, bx - 1, by, px, py, bits, lam, live, ref_stride, pix_off)
    c2 = _sad_cost(fenc_blk, fref, ref_base, bx + 1, by, px, py, bits, lam, live, ref_stride, pix_off)
    c3 = _sad_cost(fenc_blk, fref, ref_base, bx, by + 1, px, py, bits, lam, live, ref_stride, pix_off)
    packed = tl.minimum(tl.minimum(c0 * 4, c1 * 4 + 1), tl.minimum(c2 * 4 + 2, c3 * 4 + 3))
    better = live & ((packed >> 2) < bcost)
    k = packed & 3
    bx = tl.where(better, bx + (k == 2).to(tl.int32) - (k == 1).to(tl.int32), bx)
    by = tl.where(better, by + (k == 3).to(tl.int32) - (k == 0).to(tl.int32), by)
    bcost = tl.where(better, packed >> 2, bcost)
    edge = (bx >= max_x) | (bx <= min_x) | (by >= max_y) | (by <= min_y)
    live = better & (edge == 0)
    return bx, by, bcost, live, better


@triton.jit
def _block_setup(fenc, mvp, n_mb, mb_w, mb_h, width, ref_stride, MBS: tl.constexpr, PAD: tl.constexpr):
    mb = tl.program_id(0) * MBS + tl.arange(0, MBS)
    ok = mb < n_mb
    mb_y = mb // mb_w
    mb_x = mb - mb_y * mb_w
    pix = tl.arange(0, 64)
    pr = pix >> 3
    pc = pix & 7
    fenc_blk = tl.load(fenc + (mb_y * 8)[:, None] * width + (mb_x * 8)[:, None]
                       + (pr * width + pc)[None, :], mask=ok[:, None], other=0).to(tl.int32)
    px = tl.load(mvp + 2 * mb, mask=ok, other=0).to(tl.int32)
    py = tl.load(mvp + 2 * mb + 1, mask=ok, other=0).to(tl.int32)
    min_x = -8 * mb_x - 4
    max_x = 8 * (mb_w - mb_x - 1) + 4
    min_y = -8 * mb_y - 4
    max_y = 8 * (mb_h - mb_y - 1) + 4
    ref_base = (PAD + mb_y * 8) * ref_stride + PAD + mb_x * 8
    pix_off = pr * ref_stride + pc
    return mb, ok, fenc_blk, px, py, min_x, max_x, min_y, max_y, ref_base, pix_off


@triton.jit
def _dia_start(fenc, fref, mvp, bits, st_mv, st_cost, st_live, n_mb, mb_w, mb_h, width, ref_stride, lam,
               MBS: tl.constexpr, PAD: tl.constexpr):
    mb, ok, fenc_blk, px, py, min_x, max_x, min_y, max_y, ref_base, pix_off = _block_setup(
        fenc, mvp, n_mb, mb_w, mb_h, width, ref_stride, MBS, PAD)
    bx = tl.minimum(tl.maximum(px, min_x), max_x)
    by = tl.minimum(tl.maximum(py, min_y), max_y)
    bcost = _sad_cost(fenc_blk, fref, ref_base, bx, by, px, py, bits, lam, ok, ref_stride, pix_off)
    tl.store(st_mv + 2 * mb, bx, mask=ok)
    tl.store(st_mv + 2 * mb + 1, by, mask=ok)
    tl.store(st_cost + mb, bcost, mask=ok)
    tl.store(st_live + mb, ok.to(tl.int32), mask=ok)


@triton.jit
def _dia_step(fenc, fref, mvp, bits, st_mv, st_cost, st_live, moved, n_mb, mb_w, mb_h, width, ref_stride,
              lam, MBS: tl.constexpr, PAD: tl.constexpr):
    mb, ok, fenc_blk, px, py, min_x, max_x, min_y, max_y, ref_base, pix_off = _block_setup(
        fenc, mvp, n_mb, mb_w, mb_h, width, ref_stride, MBS, PAD)
    live = tl.load(st_live + mb, mask=ok, other=0) != 0
    bx = tl.load(st_mv + 2 * mb, mask=ok, other=0)
    by = tl.load(st_mv + 2 * mb + 1, mask=ok, other=0)
    bcost = tl.load(st_cost + mb, mask=ok, other=0)
    bx, by, bcost, live, better = _dia_try(fenc_blk, fref, ref_base, bx, by, bcost, live, px, py,
                                           min_x, max_x, min_y, max_y, bits, lam, ref_stride, pix_off)
    tl.store(st_mv + 2 * mb, bx, mask=ok)
    tl.store(st_mv + 2 * mb + 1, by, mask=ok)
    tl.store(st_cost + mb, bcost, mask=ok)
    tl.store(st_live + mb, live.to(tl.int32), mask=ok)
    tl.atomic_add(moved, tl.sum(better.to(tl.int32), axis=0))


@triton.jit
def _dia_finish(fenc, fref, mvp, st_mv, st_cost, out_mv, out_cost, n_mb, mb_w, mb_h, width, ref_stride,
                MBS: tl.constexpr, PAD: tl.constexpr, COST_MASK: tl.constexpr):
    mb, ok, fenc_blk, px, py, min_x, max_x, min_y, max_y, ref_base, pix_off = _block_setup(
        fenc, mvp, n_mb, mb_w, mb_h, width, ref_stride, MBS, PAD)
    bx = tl.load(st_mv + 2 * mb, mask=ok, other=0)
    by = tl.load(st_mv + 2 * mb + 1, mask=ok, other=0)
    bcost = tl.load(st_cost + mb, mask=ok, other=0)
    # zero vector, SAD only, when the predictor is more than one pel away from it
    far = ok & ((tl.abs(px) > 1) | (tl.abs(py) > 1))
    ref = tl.load(fref + ref_base[:, None] + pix_off[None, :], mask=far[:, None], other=0).to(tl.int32)
    c0 = tl.sum(tl.abs(fenc_blk - ref), axis=1)
    take = far & (c0 < bcost)
    bx = tl.where(take, 0, bx)
    by = tl.where(take, 0, by)
    bcost = tl.where(take, c0, bcost)
    tl.store(out_mv + 2 * mb, bx.to(tl.int16), mask=ok)
    tl.store(out_mv + 2 * mb + 1, by.to(tl.int16), mask=ok)
    tl.store(out_cost + mb, tl.minimum(bcost, COST_MASK).to(tl.int16), mask=ok)


def run(fenc: torch.Tensor, fref: torch.Tensor, mvp: torch.Tensor, bits: torch.Tensor,
        lam: int, me_range: int) -> tuple:
    h, w = fenc.shape
    mb_h, mb_w = mvp.shape[0], mvp.shape[1]
    n_mb = mb_h * mb_w
    pad = (fref.shape[1] - w) // 2
    dev = fenc.device
    st_mv = torch.empty((n_mb, 2), device=dev, dtype=torch.int32)
    st_cost = torch.empty(n_mb, device=dev, dtype=torch.int32)
    st_live = torch.empty(n_mb, device=dev, dtype=torch.int32)
    out_mv = torch.empty((mb_h, mb_w, 2), device=dev, dtype=torch.int16)
    out_cost = torch.empty((mb_h, mb_w), device=dev, dtype=torch.int16)
    grid = (triton.cdiv(n_mb, MBS),)
    args = (n_mb, mb_w, mb_h, w, fref.stride(0))
    _dia_start[grid](fenc, fref, mvp, bits, st_mv, st_cost, st_live, *args, lam, MBS=MBS, PAD=pad)
    # like the OpenCL do/while: step until no block moves any more (at most me_range steps)
    for _ in range(me_range):
        moved = torch.zeros(1, device=dev, dtype=torch.int32)
        _dia_step[grid](fenc, fref, mvp, bits, st_mv, st_cost, st_live, moved, *args, lam, MBS=MBS, PAD=pad)
        if moved.item() == 0:
            break
    _dia_finish[grid](fenc, fref, mvp, st_mv, st_cost, out_mv, out_cost, *args,
                      MBS=MBS, PAD=pad, COST_MASK=COST_MASK)
    return out_mv, out_cost
