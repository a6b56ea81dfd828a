"""x264 lookahead sub-pel refinement (OpenCL subpel_refine): hpel then qpel diamond on the lowres planes."""
import torch
import triton
import triton.language as tl

COST_MASK = 16383  # LOWRES_COST_MASK


@triton.jit
def _median3(a, b, c):
    return tl.maximum(tl.minimum(a, b), tl.minimum(tl.maximum(a, b), c))


@triton.jit
def _qpel_sad(fref, src, qx, qy, pix_off, plane_size, ref_stride, PAD: tl.constexpr):
    """SAD of the 64 source pixels against the four candidate predictions at qpel positions (qx, qy) [4]."""
    ax = qx + ((qx & 1) << 1)
    ay = qy + ((qy & 1) << 1)
    plane_a = ((qx & 2) >> 1) + (qy & 2)
    plane_b = ((ax & 2) >> 1) + (ay & 2)
    base_a = plane_a * plane_size + (PAD + (qy >> 2)) * ref_stride + PAD + (qx >> 2)
    base_b = plane_b * plane_size + (PAD + (ay >> 2)) * ref_stride + PAD + (ax >> 2)
    va = tl.load(fref + base_a[:, None] + pix_off[None, :]).to(tl.int32)
    vb = tl.load(fref + base_b[:, None] + pix_off[None, :]).to(tl.int32)
    pred = (va + vb + 1) >> 1
    return tl.sum(tl.abs(src[None, :] - pred), axis=1)


@triton.jit
def _subpel_refine_mb(fenc, fref, mvs, costs, bits, out_mv, out_cost, mb_w, mb_h, width, ref_stride,
                      plane_size, lam, PAD: tl.constexpr, COST_MASK: tl.constexpr):
    # one program per 8x8 lowres block, the OpenCL work-group of four work items
    mb = tl.program_id(0)
    mb_y = mb // mb_w
    mb_x = mb - mb_y * mb_w
    # x264 median predictor from the left, top, top-right, top-left integer vectors
    has_l = mb_x > 0
    has_t = mb_y > 0
    has_tr = has_t & (mb_x < mb_w - 1)
    has_tl = has_t & has_l
    l_x = tl.load(mvs + 2 * (mb - 1), mask=has_l, other=0).to(tl.int32)
    l_y = tl.load(mvs + 2 * (mb - 1) + 1, mask=has_l, other=0).to(tl.int32)
    t_x = tl.load(mvs + 2 * (mb - mb_w), mask=has_t, other=0).to(tl.int32)
    t_y = tl.load(mvs + 2 * (mb - mb_w) + 1, mask=has_t, other=0).to(tl.int32)
    tr_x = tl.load(mvs + 2 * (mb - mb_w + 1), mask=has_tr, other=0).to(tl.int32)
    tr_y = tl.load(mvs + 2 * (mb - mb_w + 1) + 1, mask=has_tr, other=0).to(tl.int32)
    tl_x = tl.load(mvs + 2 * (mb - mb_w - 1), mask=has_tl, other=0).to(tl.int32)
    tl_y = tl.load(mvs + 2 * (mb - mb_w - 1) + 1, mask=has_tl, other=0).to(tl.int32)
    s0x = tl.where(has_l, l_x, t_x)
    s0y = tl.where(has_l, l_y, t_y)
    s1x = tl.where(has_l, t_x, tr_x)
    s1y = tl.where(has_l, t_y, tr_y)
    s2x = tl.where(has_l & has_t, tl.where(has_tr, tr_x, tl_x), 0)
    s2y = tl.where(has_l & has_t, tl.where(has_tr, tr_y, tl_y), 0)
    n_mvc = has_l.to(tl.int32) + has_t.to(tl.int32) + has_tr.to(tl.int32) + has_tl.to(tl.int32)
    mvp_x = 4 * tl.where(n_mvc <= 1, s0x, _median3(s0x, s1x, s2x))
    mvp_y = 4 * tl.where(n_mvc <= 1, s0y, _median3(s0y, s1y, s2y))

    pix = tl.arange(0, 64)
    pr = pix >> 3
    pc = pix & 7
    src = tl.load(fenc + (mb_y * 8 + pr) * width + mb_x * 8 + pc).to(tl.int32)
    pix_off = pr * ref_stride + pc
    bx = 4 * tl.load(mvs + 2 * mb).to(tl.int32)
    by = 4 * tl.load(mvs + 2 * mb + 1).to(tl.int32)
    bcost = tl.load(costs + mb).to(tl.int32)
    d = tl.arange(0, 4)  # directions (0,-1), (-1,0), (1,0), (0,1)
    dx = (d == 2).to(tl.int32) - (d == 1).to(tl.int32)
    dy = (d == 3).to(tl.int32) - (d == 0).to(tl.int32)
    for step in tl.static_range(2):
        scale = 2 - step  # hpel (2 qpel units) first, then qpel
        tx = bx + scale * dx
        ty = by + scale * dy
        sad = _qpel_sad(fref, src, 32 * mb_x + tx, 32 * mb_y + ty, pix_off, plane_size, ref_stride, PAD)
        mvc = tl.load(bits + tl.abs(tx - mvp_x)) + tl.load(bits + tl.abs(ty - mvp_y))
        packed = (sad + lam * mvc) * 4 + d
        best = tl.min(packed, axis=0)
        take = (best >> 2) < bcost
        k = best & 3
        bx = tl.where(take, bx + scale * ((k == 2).to(tl.int32) - (k == 1).to(tl.int32)), bx)
        by = tl.where(take, by + scale * ((k == 3).to(tl.int32) - (k == 0).to(tl.int32)), by)
        bcost = tl.where(take, best >> 2, bcost)
    tl.store(out_mv + 2 * mb, bx.to(tl.int16))
    tl.store(out_mv + 2 * mb + 1, by.to(tl.int16))
    tl.store(out_cost + mb, tl.minimum(bcost, COST_MASK).to(tl.int16))


def run(fenc: torch.Tensor, fref: torch.Tensor, mvs: torch.Tensor, costs: torch.Tensor,
        bits: torch.Tensor, lam: int) -> tuple:
    h, w = fenc.shape
    mb_h, mb_w = mvs.shape[0], mvs.shape[1]
    pad = (fref.shape[2] - w) // 2
    out_mv = torch.empty((mb_h, mb_w, 2), device=fenc.device, dtype=torch.int16)
    out_cost = torch.empty((mb_h, mb_w), device=fenc.device, dtype=torch.int16)
    _subpel_refine_mb[(mb_h * mb_w,)](fenc, fref, mvs, costs, bits, out_mv, out_cost, mb_w, mb_h, w,
                                      fref.stride(1), fref.stride(0), lam, PAD=pad, COST_MASK=COST_MASK)
    return out_mv, out_cost
