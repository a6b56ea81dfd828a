"""x264 lookahead sub-pel refinement on the lowres hpel planes (x264 OpenCL lookahead, subpel_refine).

After the integer search, x264's lookahead refines each 8x8 lowres block's vector to quarter pel using
the four lowres planes of the reference (F full-pel, H, V, C half-pel, built by frame_init_lowres from
the source with 2x2 averaging at offsets 0 / +1 pel). A quarter-pel position q = 4*coord + mv reads
plane ((q.x & 2) >> 1) + (q.y & 2) at q >> 2; a position with an odd component is the rounded average
(a + b + 1) >> 1 of that sample and the one at q + 2*(q & 1) (x264 get_ref / sad_8x8_ii_qpel).
Per block:
    mvp   = median of the left, top, top-right and top-left integer vectors in x264's order
            (mvp = first candidate when fewer than two exist, missing slots are zero), scaled to qpel
    bmv   = 4 * integer mv, bcost = integer search cost
    hpel  : try bmv + (0,-2), (-2,0), (2,0), (0,2); cost = SAD + lambda * mvcost(trymv - mvp);
            the smallest (cost << 2 | direction) replaces bmv when its cost is below bcost
    qpel  : the same with (0,-1), (-1,0), (1,0), (0,1)
mvcost(d) = bits[|d.x|] + bits[|d.y|] with x264's calc_mv_cost bits[i] = round(2*log2(i+1) + 0.718 + (i>0)),
lambda = 1 (X264_LOOKAHEAD_QP). (x264 remeasures the winner with SATD; this task keeps the SAD cost.)
Returns (mv int16 [mb_h, mb_w, 2] in quarter pels as (x, y), cost int16 [mb_h, mb_w] clamped to 16383).
"""
import torch
import torch.nn.functional as F

META = {
    "name": "x264_lowres_subpel_refine",
    "level": 2,
    "category": "video-motion-estimation",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"W": 64, "H": 48},
        "ragged": {"W": 72, "H": 40},
        "large": {"W": 1920, "H": 1080},
    },
    "baseline_notes": "Programs take 16 lowres blocks each: the four candidates of a step form a "
                      "[16, 4, 64] tile (two plane gathers averaged, |diff| summed along the 64 pixels), the "
                      "x264 median predictor and the packed (cost << 2 | dir) minimum are [16]-wide vectors; "
                      "hpel then qpel in one launch, 4 warps, no autotune.",
    "deterministic": True,
}
PAD = 32          # x264 lowres plane padding (PADH)
LAMBDA = 1        # x264_lambda_tab[X264_LOOKAHEAD_QP]
COST_MASK = 16383  # LOWRES_COST_MASK
HPEL = ((0, -2), (-2, 0), (2, 0), (0, 2))
QPEL = ((0, -1), (-1, 0), (1, 0), (0, 1))


def mv_bits_table() -> torch.Tensor:
    """x264 calc_mv_cost per component, indexed by |mvd| in quarter pels."""
    i = torch.arange(4 * 2048 + 1, dtype=torch.float64)
    return torch.round(2.0 * torch.log2(i + 1.0) + 0.718 + (i > 0).double()).to(torch.int32)


def _texture(h: int, w: int, g: torch.Generator) -> torch.Tensor:
    img = torch.zeros(1, 1, h, w)
    for step, amp in ((48, 70.0), (16, 40.0), (6, 18.0)):
        coarse = torch.randn(1, 1, h // step + 2, w // step + 2, generator=g)
        img += amp * F.interpolate(coarse, size=(h, w), mode="bicubic", align_corners=False)
    img += 3.0 * torch.randn(1, 1, h, w, generator=g)
    return (img + 128.0).clamp(0, 255).round()[0, 0].long()


def _avg(a, b):
    return (a + b + 1) >> 1


def _lowres_planes(src: torch.Tensor) -> torch.Tensor:
    """x264 frame_init_lowres: F, H, V, C planes from a full-res plane of size (2h + 1, 2w + 1)."""
    planes = []
    for oy, ox in ((0, 0), (0, 1), (1, 0), (1, 1)):
        s0 = src[oy:oy + src.shape[0] - 1:2]
        s1 = src[oy + 1::2][: s0.shape[0]]
        a = _avg(s0[:, ox:ox + src.shape[1] - 1:2], s1[:, ox:ox + src.shape[1] - 1:2])
        b = _avg(s0[:, ox + 1::2][:, : a.shape[1]], s1[:, ox + 1::2][:, : a.shape[1]])
        planes.append(_avg(a, b))
    return torch.stack(planes)


def _predictor(mvs: torch.Tensor) -> torch.Tensor:
    """x264 median of the left / top / top-right / top-left vectors ([mb_h, mb_w, 2] in, same out)."""
    mb_h, mb_w = mvs.shape[:2]
    zero = torch.zeros_like(mvs)
    pad = F.pad(mvs.permute(2, 0, 1), (1, 1, 1, 0)).permute(1, 2, 0)  # pad top row, left and right cols
    left, top = pad[1:, :-2], pad[:-1, 1:-1]
    top_r, top_l = pad[:-1, 2:], pad[:-1, :-2]
    mbx = torch.arange(mb_w, device=mvs.device)[None, :, None]
    mby = torch.arange(mb_h, device=mvs.device)[:, None, None]
    has_l, has_t = mbx > 0, mby > 0
    has_tr, has_tl = has_t & (mbx < mb_w - 1), has_t & has_l
    s0 = torch.where(has_l, left, torch.where(has_t, top, zero))
    s1 = torch.where(has_l, torch.where(has_t, top, zero), torch.where(has_tr, top_r, zero))
    s2 = torch.where(has_l & has_t, torch.where(has_tr, top_r, top_l), zero)
    n = has_l.long() + has_t.long() + has_tr.long() + has_tl.long()
    med = torch.maximum(torch.minimum(s0, s1), torch.minimum(torch.maximum(s0, s1), s2))
    return torch.where(n <= 1, s0, med)


def _sad_qpel(src, planes, pad, mbx, mby, qx, qy):
    """SAD of the [n, 8, 8] source blocks against the qpel prediction at mv (qx, qy) [n]."""
    r = torch.arange(8, device=src.device)
    out = []
    for mx, my in ((qx, qy), (qx + ((qx & 1) << 1), qy + ((qy & 1) << 1))):
        px, py = 32 * mbx + mx, 32 * mby + my
        idx = ((px & 2) >> 1) + (py & 2)
        rows = pad + (py >> 2)[:, None, None] + r[None, :, None]
        cols = pad + (px >> 2)[:, None, None] + r[None, None, :]
        out.append(planes[idx[:, None, None], rows, cols])
    return (src - _avg(out[0], out[1])).abs().sum(dim=(1, 2))


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """fenc [H, W] uint8 (current lowres plane), fref [4, H + 64, W + 64] uint8 (reference F/H/V/C lowres
    planes, padded), mvs [mb_h, mb_w, 2] int16 and costs [mb_h, mb_w] int16 from the integer search,
    bits [8193] int32, lambda."""
    s = META["sizes"][size]
    h, w = s["H"], s["W"]
    mb_h, mb_w = h // 8, w // 8
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    big = _texture(2 * (h + 2 * PAD) + 1, 2 * (w + 2 * PAD) + 1, g)
    planes = _lowres_planes(big)  # [4, h + 2 PAD, w + 2 PAD]
    # true motion in full-res pels (= half lowres pels), smooth, inside the lowres search range
    field = F.interpolate(torch.randn(1, 2, mb_h // 5 + 2, mb_w // 5 + 2, generator=g),
                          size=(mb_h, mb_w), mode="bilinear", align_corners=False)[0]
    pan = torch.randint(-6, 7, (2,), generator=g).float()
    tx = (pan[0] + 6.0 * field[0]).round().long()
    ty = (pan[1] + 6.0 * field[1]).round().long()
    mby, mbx = torch.meshgrid(torch.arange(mb_h), torch.arange(mb_w), indexing="ij")
    tx = torch.maximum(torch.minimum(tx, 2 * (8 * (mb_w - mbx - 1) + 3)), 2 * (-8 * mbx - 3))
    ty = torch.maximum(torch.minimum(ty, 2 * (8 * (mb_h - mby - 1) + 3)), 2 * (-8 * mby - 3))
    r = torch.arange(8)
    idx = (tx & 1) + 2 * (ty & 1)
    rows = PAD + 8 * mby[:, :, None, None] + (ty >> 1)[:, :, None, None] + r[None, None, :, None]
    cols = PAD + 8 * mbx[:, :, None, None] + (tx >> 1)[:, :, None, None] + r[None, None, None, :]
    blocks = planes[idx[:, :, None, None], rows, cols] + torch.randint(-3, 4, (mb_h, mb_w, 8, 8), generator=g)
    fenc = blocks.clamp(0, 255).permute(0, 2, 1, 3).reshape(h, w)
    # integer-search result: the true vector rounded, sometimes a pel off, and its cost
    ix = torch.div(tx + torch.randint(0, 2, tx.shape, generator=g), 2, rounding_mode="floor")
    iy = torch.div(ty + torch.randint(0, 2, ty.shape, generator=g), 2, rounding_mode="floor")
    ix += (torch.rand(ix.shape, generator=g) < 0.1).long() * torch.randint(-1, 2, ix.shape, generator=g)
    iy += (torch.rand(iy.shape, generator=g) < 0.1).long() * torch.randint(-1, 2, iy.shape, generator=g)
    ix = torch.maximum(torch.minimum(ix, 8 * (mb_w - mbx - 1) + 4), -8 * mbx - 4)
    iy = torch.maximum(torch.minimum(iy, 8 * (mb_h - mby - 1) + 4), -8 * mby - 4)
    mvs = torch.stack([ix, iy], dim=-1)
    bits = mv_bits_table()
    mvp = _predictor(mvs).reshape(-1, 2)
    src = fenc.reshape(mb_h, 8, mb_w, 8).permute(0, 2, 1, 3).reshape(-1, 8, 8)
    flat = mvs.reshape(-1, 2)
    sad = _sad_qpel(src, planes, PAD, mbx.reshape(-1), mby.reshape(-1), 4 * flat[:, 0], 4 * flat[:, 1])
    mvcost = bits[4 * (flat[:, 0] - mvp[:, 0]).abs()] + bits[4 * (flat[:, 1] - mvp[:, 1]).abs()]
    costs = (sad + LAMBDA * mvcost).clamp(max=COST_MASK).reshape(mb_h, mb_w)
    return (fenc.to(dt).to(device), planes.to(dt).to(device), mvs.to(torch.int16).to(device),
            costs.to(torch.int16).to(device), bits.to(device), LAMBDA)


def reference(fenc: torch.Tensor, fref: torch.Tensor, mvs: torch.Tensor, costs: torch.Tensor,
              bits: torch.Tensor, lam: int) -> tuple:
    h, w = fenc.shape
    mb_h, mb_w = mvs.shape[:2]
    pad = (fref.shape[2] - w) // 2
    dev = fenc.device
    mb = torch.arange(mb_h * mb_w, device=dev)
    mby, mbx = mb // mb_w, mb % mb_w
    src = fenc.long().reshape(mb_h, 8, mb_w, 8).permute(0, 2, 1, 3).reshape(-1, 8, 8)
    planes = fref.long()
    bits = bits.long()
    mvp = 4 * _predictor(mvs.long()).reshape(-1, 2)
    bx = 4 * mvs[..., 0].reshape(-1).long()
    by = 4 * mvs[..., 1].reshape(-1).long()
    bcost = costs.reshape(-1).long()
    for offs in (HPEL, QPEL):
        packed = []
        for i, (dx, dy) in enumerate(offs):
            tx, ty = bx + dx, by + dy
            c = _sad_qpel(src, planes, pad, mbx, mby, tx, ty)
            c = c + lam * (bits[(tx - mvp[:, 0]).abs()] + bits[(ty - mvp[:, 1]).abs()])
            packed.append(c * 4 + i)
        best = torch.stack(packed).min(dim=0).values
        take = (best >> 2) < bcost
        k = best & 3
        ox = torch.tensor([o[0] for o in offs], device=dev)
        oy = torch.tensor([o[1] for o in offs], device=dev)
        bx = torch.where(take, bx + ox[k], bx)
        by = torch.where(take, by + oy[k], by)
        bcost = torch.where(take, best >> 2, bcost)
    mv = torch.stack([bx, by], dim=-1).reshape(mb_h, mb_w, 2).to(torch.int16)
    return mv, bcost.clamp(max=COST_MASK).reshape(mb_h, mb_w).to(torch.int16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = (s["H"] // 8) * (s["W"] // 8)
    return {"bytes": s["H"] * s["W"] + 8 * n + 8 * 2 * 64 * n, "flops": 8 * 64 * 5 * n}
