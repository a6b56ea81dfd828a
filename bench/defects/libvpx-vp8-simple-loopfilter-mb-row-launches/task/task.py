"""Vertical-edge pass of libvpx's VP8 simple loop filter over a decoded luma frame.

For every macroblock (16x16) with filter level L > 0 (per MB: segment and ref/mode deltas already
applied), libvpx filters, on each of the MB's 16 rows, the left MB edge x = 16*mb_col (not at the
frame border; vp8_loop_filter_simple_mbv with mblimit) and, unless the MB skips inner edges
(no coefficients and not B_PRED/SPLITMV), the inner edges x + 4, x + 8, x + 12
(vp8_loop_filter_bvs_c with blimit). The limits come from vp8_loop_filter_update_sharpness:
    interior = max(1, min(L >> (sharp > 0) >> (sharp > 4), 9 - sharp if sharp > 0))
    mblimit  = (L + 2) * 2 + interior,   blimit = 2 * L + interior
and each row of an edge is the simple filter on p1 p0 | q0 q1 (vp8_loop_filter_simple_vertical_edge_c):
    mask = |p0 - q0| * 2 + |p1 - q1| / 2 <= limit
    f  = clamp(clamp(p1 - q1) + 3 * (q0 - p0)) & mask       (signed-char domain, v ^ 0x80)
    q0 = clamp(q0 - (clamp(f + 4) >> 3)),   p0 = clamp(p0 + (clamp(f + 3) >> 3))
Only p0 and q0 change and edges are 4 pixels apart, so all vertical edges of the frame are
independent: the pass is done frame-wide, as GPU decoders split the filter into a vertical-edge and a
horizontal-edge pass (libvpx interleaves the two per MB; this task is the vertical pass alone).
Returns the filtered frame (uint8 [H, W], a new tensor).
"""
import torch

META = {
    "name": "vp8_simple_loopfilter_vertical",
    "level": 2,
    "category": "video-codec",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"H": 32, "W": 48, "sharpness": 3},
        "ragged": {"H": 48, "W": 80, "sharpness": 6},
        # a 1080p VP8 frame as coded: 1920 x 1088 luma, 120 x 68 macroblocks
        "large": {"H": 1088, "W": 1920, "sharpness": 0},
    },
    "baseline_notes": "One launch; grid (MB-column groups of 16, MB rows): each program takes a 16-row x "
                      "16-MB strip as a [16, 16, 4] tile of edges (MB edge + 3 inner edges per MB), loads "
                      "p1/p0/q0/q1 at x-2..x+1, computes the limits from each MB's level, and stores the "
                      "new p0/q0 into a copy of the frame. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """frame uint8 [H, W] with blocking artefacts, level int32 [H/16, W/16] (0..63),
    skip_inner int32 [H/16, W/16] (1: no inner-edge filtering), sharpness (int 0..7)."""
    s = META["sizes"][size]
    h, w = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    yy = torch.arange(h, dtype=torch.float32)[:, None]
    xx = torch.arange(w, dtype=torch.float32)[None, :]
    img = 110 + 60 * torch.sin(xx / 37.0 + 0.3 * seed) * torch.cos(yy / 23.0) + 0.04 * xx - 0.03 * yy
    # reconstruction error: a DC offset per 4x4 block (coarse quantisation) plus noise
    dc = torch.randn(h // 4, w // 4, generator=g) * 6.0
    img = img + dc.repeat_interleave(4, 0).repeat_interleave(4, 1) + torch.randn(h, w, generator=g) * 2.0
    frame = img.round().clamp(0, 255).to(torch.uint8)
    mbr, mbc = h // 16, w // 16
    base = torch.randint(18, 42, (1,), generator=g).item()
    seg_delta = torch.tensor([0, -8, 6, 12])[torch.randint(0, 4, (mbr, mbc), generator=g)]
    level = (base + seg_delta).clamp(0, 63)
    level = torch.where(torch.rand(mbr, mbc, generator=g) < 0.08, torch.zeros_like(level), level)
    skip_inner = (torch.rand(mbr, mbc, generator=g) < 0.4).to(torch.int32)
    return (frame.to(device), level.to(torch.int32).to(device), skip_inner.to(device), s["sharpness"])


def _clamp_sc(v: torch.Tensor) -> torch.Tensor:
    return v.clamp(-128, 127)


def reference(frame: torch.Tensor, level: torch.Tensor, skip_inner: torch.Tensor, sharpness: int) -> torch.Tensor:
    y = frame.long()
    h, w = y.shape
    e = torch.arange(1, w // 4, device=frame.device)           # edge columns x = 4e (x = 0 is the border)
    xs = 4 * e
    mb_col = e // 4
    lv = level.long().repeat_interleave(16, 0)[:, mb_col]       # [H, edges]
    sk = skip_inner.long().repeat_interleave(16, 0)[:, mb_col]
    is_mb = (e % 4 == 0)[None, :]
    interior = lv >> int(sharpness > 0) >> int(sharpness > 4)
    if sharpness > 0:
        interior = interior.clamp(max=9 - sharpness)
    interior = interior.clamp(min=1)
    limit = torch.where(is_mb, (lv + 2) * 2 + interior, 2 * lv + interior)
    active = (lv > 0) & (is_mb | (sk == 0))
    p1, p0, q0, q1 = y[:, xs - 2], y[:, xs - 1], y[:, xs], y[:, xs + 1]
    mask = ((p0 - q0).abs() * 2 + (p1 - q1).abs() // 2 <= limit) & active
    ps1, ps0, qs0, qs1 = p1 - 128, p0 - 128, q0 - 128, q1 - 128
    f = _clamp_sc(_clamp_sc(ps1 - qs1) + 3 * (qs0 - ps0))
    f = torch.where(mask, f, torch.zeros_like(f))
    f1 = torch.div(_clamp_sc(f + 4), 8, rounding_mode="floor")
    f2 = torch.div(_clamp_sc(f + 3), 8, rounding_mode="floor")
    out = y.clone()
    out[:, xs] = _clamp_sc(qs0 - f1) + 128
    out[:, xs - 1] = _clamp_sc(ps0 + f2) + 128
    return out.to(torch.uint8)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 3 * n, "flops": 6 * n}
