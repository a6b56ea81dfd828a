"""x264 lookahead motion search on the lowres planes (x264 OpenCL lookahead, hierarchical_motion).

x264's lookahead estimates frame costs on half-resolution ("lowres") planes: every 8x8 lowres block
(one 16x16 macroblock of the source) gets an integer motion vector by a small diamond search that
starts at its predictor. With the block at (8*mb_x, 8*mb_y):
    mv range  mv_min = -8*mb + (-4),  mv_max = 8*(mb_count - mb - 1) + 4   (per axis)
    start     best = clip(mvp, mv_min, mv_max),  bcost = SAD(best) + lambda * mvcost(best - mvp)
    repeat up to me_range times:
        try the four diamond neighbours (0,-1), (-1,0), (1,0), (0,1) of best;
        the smallest (cost << 2 | direction) wins (ties: lowest direction);
        stop when it does not beat bcost, else move there, and stop once best touches the range edge
    finally the zero vector is tried (SAD only, no mv cost) when mvp is more than 1 pel away from it.
mvcost(d) = bits[4*|d.x|] + bits[4*|d.y|], with bits[i] = round(2*log2(i+1) + 0.718 + (i > 0)) the
x264 MV bit estimate in quarter-pel units (calc_mv_cost), and lambda = 1 (X264_LOOKAHEAD_QP = 12).
SAD is over the 8x8 lowres block of the current frame against the reference lowres plane, which x264
pads by 32 pels with edge replication. Returns (mv int16 [mb_h, mb_w, 2] as (x, y),
cost int16 [mb_h, mb_w] clamped to LOWRES_COST_MASK = 16383).
"""
import math

import torch
import torch.nn.functional as F

META = {
    "name": "x264_lowres_dia_search",
    "level": 2,
    "category": "video-motion-estimation",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"W": 64, "H": 48, "me_range": 16},
        "ragged": {"W": 72, "H": 40, "me_range": 16},
        "large": {"W": 1920, "H": 1080, "me_range": 16},
    },
    "baseline_notes": "Three launches, no host synchronisation: a start kernel (clipped predictor and its "
                      "cost), one search kernel whose programs take 32 blocks each ([32, 64] pixel tiles) "
                      "and run the whole diamond walk in registers for up to me_range steps with per-block "
                      "live masks (converged blocks issue no loads), and a finish kernel (zero-vector check, "
                      "int16 packing). 4 warps, no autotune.",
    "deterministic": True,
}
PAD = 32          # x264 pads the lowres planes by PADH = 32 pels
LAMBDA = 1        # x264_lambda_tab[X264_LOOKAHEAD_QP]
COST_MASK = 16383  # LOWRES_COST_MASK
DIA = ((0, -1), (-1, 0), (1, 0), (0, 1))


def mv_bits_table() -> torch.Tensor:
    """x264 calc_mv_cost per component, indexed by |mvd| in quarter pels."""
    i = torch.arange(4 * 2048 + 1, dtype=torch.float64)
    return torch.round(2.0 * torch.log2(i + 1.0) + 0.718 + (i > 0).double()).to(torch.int32)


def _texture(h: int, w: int, g: torch.Generator) -> torch.Tensor:
    """Smooth 8-bit picture content: a few octaves of interpolated noise."""
    img = torch.zeros(1, 1, h, w)
    for step, amp in ((32, 70.0), (12, 40.0), (5, 18.0)):
        coarse = torch.randn(1, 1, h // step + 2, w // step + 2, generator=g)
        img += amp * F.interpolate(coarse, size=(h, w), mode="bicubic", align_corners=False)
    img += 3.0 * torch.randn(1, 1, h, w, generator=g)
    return (img + 128.0).clamp(0, 255).round()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """fenc [H, W] uint8 (current lowres plane), fref [H + 64, W + 64] uint8 (padded reference lowres
    plane), mvp [mb_h, mb_w, 2] int16 (predictors from the coarser pass), bits [8193] int32, lambda, me_range."""
    s = META["sizes"][size]
    h, w = s["H"], s["W"]
    mb_h, mb_w = h // 8, w // 8
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ref = F.pad(_texture(h, w, g), (PAD, PAD, PAD, PAD), mode="replicate")[0, 0]
    # true block motion: a pan plus a smooth local field, kept inside the search range
    pan = torch.randint(-3, 4, (2,), generator=g).float()
    field = F.interpolate(torch.randn(1, 2, mb_h // 6 + 2, mb_w // 6 + 2, generator=g),
                          size=(mb_h, mb_w), mode="bilinear", align_corners=False)[0]
    tx = (pan[0] + 3.0 * field[0]).round().long()
    ty = (pan[1] + 3.0 * field[1]).round().long()
    mby, mbx = torch.meshgrid(torch.arange(mb_h), torch.arange(mb_w), indexing="ij")
    tx = torch.maximum(torch.minimum(tx, 8 * (mb_w - mbx - 1) + 3), -8 * mbx - 3)
    ty = torch.maximum(torch.minimum(ty, 8 * (mb_h - mby - 1) + 3), -8 * mby - 3)
    r = torch.arange(8)
    rows = PAD + 8 * mby[:, :, None, None] + ty[:, :, None, None] + r[None, None, :, None]
    cols = PAD + 8 * mbx[:, :, None, None] + tx[:, :, None, None] + r[None, None, None, :]
    blocks = ref[rows, cols] + torch.randint(-4, 5, (mb_h, mb_w, 8, 8), generator=g).float()
    fenc = blocks.clamp(0, 255).permute(0, 2, 1, 3).reshape(h, w)
    err = torch.randint(-4, 5, (mb_h, mb_w, 2), generator=g)
    mvp = torch.stack([tx, ty], dim=-1) + err
    return (fenc.to(dt).to(device), ref.to(dt).to(device), mvp.to(torch.int16).to(device),
            mv_bits_table().to(device), LAMBDA, s["me_range"])


def reference(fenc: torch.Tensor, fref: torch.Tensor, mvp: torch.Tensor, bits: torch.Tensor,
              lam: int, me_range: int) -> tuple:
    h, w = fenc.shape
    mb_h, mb_w = mvp.shape[0], mvp.shape[1]
    pad = (fref.shape[1] - w) // 2
    dev = fenc.device
    n = mb_h * mb_w
    mb = torch.arange(n, device=dev)
    mby, mbx = mb // mb_w, mb % mb_w
    px = mvp[..., 0].reshape(-1).long()
    py = mvp[..., 1].reshape(-1).long()
    min_x, max_x = -8 * mbx - 4, 8 * (mb_w - mbx - 1) + 4
    min_y, max_y = -8 * mby - 4, 8 * (mb_h - mby - 1) + 4
    r = torch.arange(8, device=dev)
    src = fenc.long()[(8 * mby[:, None, None] + r[None, :, None]), (8 * mbx[:, None, None] + r[None, None, :])]
    ref = fref.long()
    bits = bits.long()

    def sad(mx, my):
        rows = pad + 8 * mby[:, None, None] + my[:, None, None] + r[None, :, None]
        cols = pad + 8 * mbx[:, None, None] + mx[:, None, None] + r[None, None, :]
        return (src - ref[rows, cols]).abs().sum(dim=(1, 2))

    def mvcost(mx, my):
        return lam * (bits[4 * (mx - px).abs()] + bits[4 * (my - py).abs()])

    bx = torch.maximum(torch.minimum(px, max_x), min_x)
    by = torch.maximum(torch.minimum(py, max_y), min_y)
    bcost = sad(bx, by) + mvcost(bx, by)
    live = torch.ones(n, dtype=torch.bool, device=dev)
    ddx = torch.tensor([d[0] for d in DIA], device=dev)
    ddy = torch.tensor([d[1] for d in DIA], device=dev)
    for _ in range(me_range):
        if not bool(live.any()):
            break
        packed = torch.stack([(sad(bx + dx, by + dy) + mvcost(bx + dx, by + dy)) * 4 + i
                              for i, (dx, dy) in enumerate(DIA)]).min(dim=0).values
        better = live & ((packed >> 2) < bcost)
        k = packed & 3
        bx = torch.where(better, bx + ddx[k], bx)
        by = torch.where(better, by + ddy[k], by)
        bcost = torch.where(better, packed >> 2, bcost)
        edge = (bx >= max_x) | (bx <= min_x) | (by >= max_y) | (by <= min_y)
        live = better & ~edge
    zero = torch.zeros_like(bx)
    far = (px.abs() > 1) | (py.abs() > 1)
    c0 = sad(zero, zero)
    take = far & (c0 < bcost)
    bx = torch.where(take, zero, bx)
    by = torch.where(take, zero, by)
    bcost = torch.where(take, c0, bcost)
    mv = torch.stack([bx, by], dim=-1).reshape(mb_h, mb_w, 2).to(torch.int16)
    return mv, bcost.clamp(max=COST_MASK).reshape(mb_h, mb_w).to(torch.int16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = (s["H"] // 8) * (s["W"] // 8)
    return {"bytes": 2 * s["H"] * s["W"] + 8 * n, "flops": 3 * 64 * n * (2 + 4 * s["me_range"])}
