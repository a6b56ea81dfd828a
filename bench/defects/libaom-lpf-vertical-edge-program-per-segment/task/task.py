"""AV1 deblocking, vertical-edge pass of a 10-bit luma plane (libaom aom_highbd_lpf_vertical_{4,8,14}_c,
dav1d loop_filter_h_sb128y): every vertical transform edge is filtered across, row by row.

Per 4x4 block (by, bx), edge_len[by, bx] is the filter length of the vertical edge on its left (0: no
edge, 4, 8 or 14: min of the transform widths on both sides, 4 / 8 / >= 16) and level[by, bx] its filter
level (1..63). With sharpness s: I = max(min(lvl >> ((s > 0) + (s > 4)), 9 - s if s > 0), 1),
E = 2 (lvl + 2) + I, H = lvl >> 4, all << (bd - 8). On each row, with p_i = x[edge - 1 - i] and
q_i = x[edge + i]:
  len 4:  filter_mask2 (p1..q1) -> filter4 (hev-dependent 4-tap, modifies p1..q1)
  len 8:  filter_mask (p3..q3); flat (|p1..3 - p0|, |q1..3 - q0| <= 1 << (bd - 8)) -> 7-tap
          [1,1,1,2,1,1,1] / 8 on p2..q2, else filter4
  len 14: as len 8, and flat2 (|p4..6 - p0|, |q4..6 - q0| <= 1 << (bd - 8)) -> 13-tap
          [1,1,1,1,1,2,2,2,1,1,1,1,1] / 16 on p5..q5
The transform grid makes the edges independent: no edge reads a pixel another edge of the pass modifies.
H is a multiple of 4 and W of 16, so every tap an edge's length needs lies inside the plane.
Returns the filtered plane, int16 [H, W].
"""
import torch

META = {
    "name": "lpf_vertical_edges",
    "level": 2,
    "category": "video-postfilter",
    "dtypes": ["int16"],
    "tolerance": {"int16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"H": 20, "W": 112},
        "ragged": {"H": 28, "W": 80},
        "large": {"H": 2160, "W": 3840},
    },
    "baseline_notes": "A copy of the plane, then one launch over [16 rows x 16 edge slots] tiles (an edge slot "
                      "every 4 columns): each element reads its edge length and level, loads the taps its "
                      "length needs (p6..q6 at most, masked), evaluates masks, filter4 / 8 / 14 in int32 and "
                      "stores the pixels its length modifies. Default 4 warps, no autotune.",
    "deterministic": True,
}
BITDEPTH = 10


def _tx_widths(nby: int, nbx: int, g: torch.Generator) -> torch.Tensor:
    """Transform width (pixels) of the square transform covering each 4x4 block: a quadtree per 64x64."""
    tw = torch.zeros(nby, nbx, dtype=torch.long)
    split_p = {64: 0.75, 32: 0.5, 16: 0.45, 8: 0.35}

    def split(y, x, s):
        if s > 4 and torch.rand(1, generator=g).item() < split_p[s]:
            for dy in (0, s // 2):
                for dx in (0, s // 2):
                    split(y + dy, x + dx, s // 2)
        else:
            tw[y // 4:(y + s) // 4, x // 4:(x + s) // 4] = s

    for sy in range(0, nby * 4, 64):
        for sx in range(0, nbx * 4, 64):
            split(sy, sx, 64)
    return tw


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """plane int16 [H, W] (10-bit, blocky decoded content), edge_len uint8 and level uint8 [H/4, W/4],
    sharpness (int)."""
    s = META["sizes"][size]
    h, w = s["H"], s["W"]
    nby, nbx = h // 4, w // 4
    g = torch.Generator().manual_seed(seed)
    tw = _tx_widths((nby + 15) // 16 * 16, (nbx + 15) // 16 * 16, g)[:nby, :nbx]
    col = torch.arange(nbx)[None, :]
    starts = (col * 4) % tw == 0
    left = torch.cat([tw[:, :1], tw[:, :-1]], 1)
    m = torch.minimum(left, tw)
    edge_len = torch.where(m >= 16, 14, m)
    edge_len = torch.where(starts & (col > 0), edge_len, torch.zeros_like(edge_len))
    # frame level ~32 with per-superblock delta_lf; some superblocks switch the filter off
    nsy, nsx = (h + 63) // 64, (w + 63) // 64
    sb_lvl = (32 + torch.randint(-14, 15, (nsy, nsx), generator=g)).clamp(0, 63)
    sb_lvl[torch.rand(nsy, nsx, generator=g) < 0.08] = 0
    level = sb_lvl.repeat_interleave(16, 0).repeat_interleave(16, 1)[:nby, :nbx]
    edge_len = torch.where(level > 0, edge_len, torch.zeros_like(edge_len))
    # content: smooth picture with object boundaries, per-transform-block DC error (blocking), flat or
    # textured areas
    yy = torch.arange(h, dtype=torch.float32)[:, None]
    xx = torch.arange(w, dtype=torch.float32)[None, :]
    base = 500.0 + 250.0 * torch.sin(xx / 900.0) * torch.cos(yy / 700.0) + 30.0 * torch.sin(xx / 260.0 + yy / 310.0)
    base = base + 220.0 * ((xx / 173.0 + 0.4 * torch.sin(yy / 61.0)) % 1.0 < 0.5)  # object boundaries
    dc = (torch.randn(nby, nbx, generator=g) * 5.0).round()
    # one DC error per transform block: take the value at its top-left 4x4
    ty = (torch.arange(nby)[:, None] * 4 // tw) * tw // 4
    tx = (torch.arange(nbx)[None, :] * 4 // tw) * tw // 4
    dc = dc[ty, tx].repeat_interleave(4, 0).repeat_interleave(4, 1)
    ry, rx = (h + 15) // 16, (w + 15) // 16  # flat or textured 16x16 areas
    sigma = torch.where(torch.rand(ry, rx, generator=g) < 0.5, 0.6, 6.0)
    sigma = sigma.repeat_interleave(16, 0).repeat_interleave(16, 1)[:h, :w]
    noise = torch.randn(h, w, generator=g) * sigma
    plane = (base + dc + noise).round().clamp(0, (1 << BITDEPTH) - 1).to(torch.int16)
    sharpness = 0 if seed % 2 == 0 else 3
    return (plane.to(device), edge_len.to(torch.uint8).to(device), level.to(torch.uint8).to(device),
            sharpness)


def reference(plane: torch.Tensor, edge_len: torch.Tensor, level: torch.Tensor, sharpness: int) -> torch.Tensor:
    h, w = plane.shape
    dev = plane.device
    shift = BITDEPTH - 8
    one = 1 << shift
    off = 0x80 << shift
    lo, hi = -(128 << shift), (128 << shift) - 1
    ln = edge_len.long().repeat_interleave(4, 0)            # [H, W/4]
    lv = level.long().repeat_interleave(4, 0)
    ys, bxs = torch.nonzero(ln > 0, as_tuple=True)
    L, lvl = ln[ys, bxs], lv[ys, bxs]
    x = bxs * 4
    src = plane.long()
    p = [src[ys, (x - 1 - i).clamp(min=0)] for i in range(7)]
    q = [src[ys, (x + i).clamp(max=w - 1)] for i in range(7)]

    lim = lvl >> ((1 if sharpness > 0 else 0) + (1 if sharpness > 4 else 0))
    if sharpness > 0:
        lim = lim.clamp(max=9 - sharpness)
    lim = lim.clamp(min=1)
    I, E, H = lim << shift, (2 * (lvl + 2) + lim) << shift, (lvl >> 4) << shift
    a = lambda u, v: (u - v).abs()
    mask = (a(p[1], p[0]) <= I) & (a(q[1], q[0]) <= I) & (a(p[0], q[0]) * 2 + a(p[1], q[1]) // 2 <= E)
    mask8 = mask & (a(p[3], p[2]) <= I) & (a(p[2], p[1]) <= I) & (a(q[2], q[1]) <= I) & (a(q[3], q[2]) <= I)
    mask = torch.where(L >= 8, mask8, mask)
    flat = (L >= 8) & torch.stack([a(p[i], p[0]) <= one for i in (1, 2, 3)]
                                  + [a(q[i], q[0]) <= one for i in (1, 2, 3)]).all(0)
    flat2 = (L == 14) & torch.stack([a(p[i], p[0]) <= one for i in (4, 5, 6)]
                                    + [a(q[i], q[0]) <= one for i in (4, 5, 6)]).all(0)
    use14 = mask & flat & flat2
    use8 = mask & flat & ~use14

    # filter4
    c = lambda t: t.clamp(lo, hi)
    ps1, ps0, qs0, qs1 = p[1] - off, p[0] - off, q[0] - off, q[1] - off
    hev = (a(p[1], p[0]) > H) | (a(q[1], q[0]) > H)
    f = torch.where(hev, c(ps1 - qs1), torch.zeros_like(ps1))
    f = torch.where(mask, c(f + 3 * (qs0 - ps0)), torch.zeros_like(f))
    f1, f2 = c(f + 4) >> 3, c(f + 3) >> 3
    f4 = {("q", 0): c(qs0 - f1) + off, ("p", 0): c(ps0 + f2) + off}
    f = torch.where(hev, torch.zeros_like(f1), (f1 + 1) >> 1)
    f4[("q", 1)], f4[("p", 1)] = c(qs1 - f) + off, c(ps1 + f) + off

    # filter8: 7-tap on p2..q2 (symmetric: swap p and q)
    def f8(u, v):
        return {0: (u[3] + u[2] + u[1] + 2 * u[0] + v[0] + v[1] + v[2] + 4) >> 3,
                1: (2 * u[3] + u[2] + 2 * u[1] + u[0] + v[0] + v[1] + 4) >> 3,
                2: (3 * u[3] + 2 * u[2] + u[1] + u[0] + v[0] + 4) >> 3}

    # filter14: 13-tap on p5..q5
    def f14(u, v):
        return {0: (u[6] + u[5] + u[4] + u[3] + u[2] + 2 * u[1] + 2 * u[0] + 2 * v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + 8) >> 4,
                1: (2 * u[6] + u[5] + u[4] + u[3] + 2 * u[2] + 2 * u[1] + 2 * u[0] + v[0] + v[1] + v[2] + v[3] + v[4] + 8) >> 4,
                2: (3 * u[6] + u[5] + u[4] + 2 * u[3] + 2 * u[2] + 2 * u[1] + u[0] + v[0] + v[1] + v[2] + v[3] + 8) >> 4,
                3: (4 * u[6] + u[5] + 2 * u[4] + 2 * u[3] + 2 * u[2] + u[1] + u[0] + v[0] + v[1] + v[2] + 8) >> 4,
                4: (5 * u[6] + 2 * u[5] + 2 * u[4] + 2 * u[3] + u[2] + u[1] + u[0] + v[0] + v[1] + 8) >> 4,
                5: (7 * u[6] + 2 * u[5] + 2 * u[4] + u[3] + u[2] + u[1] + u[0] + v[0] + 8) >> 4}

    out = src.clone()
    for side, u, v, col in (("p", p, q, lambda i: x - 1 - i), ("q", q, p, lambda i: x + i)):
        r8, r14 = f8(u, v), f14(u, v)
        for i in range(6):
            new = torch.where(use14, r14[i], u[i])
            if i < 3:
                new = torch.where(use8, r8[i], new)
            if i < 2:
                new = torch.where(use14 | use8, new, f4[(side, i)])
            reach = {0: L >= 4, 1: L >= 4, 2: L >= 8}.get(i, L == 14)
            out[ys[reach], col(i)[reach]] = new[reach]
    return out.to(torch.int16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 6 * n, "flops": 100 * n}
