"""AV1 loop restoration, Wiener filter (dav1d wiener_filter_c, 10-bit), applied to a whole luma plane.

The plane is split into restoration units of unit_size x unit_size (AV1 rule: max((n + unit_size / 2) //
unit_size, 1) units per axis, the last unit of a row or column absorbs the remainder). Every unit carries
its own 7-tap symmetric separable filter, coded as three taps (f0, f1, f2) per direction; the centre tap is
128 - 2 (f0 + f1 + f2) (dav1d's high-bitdepth filter[k][3], +128 included), all-zero taps are the identity
(a unit with RESTORE_NONE). With bd = 10:
    hor[r, c] = clip((2^(bd+6) + sum_j fh[j] src[r, c + j - 3] + 4) >> 3, 0, 2^15 - 1)
    out[r, c] = clip((sum_k fv[k] hor[r + k - 3, c] - 2^(bd+10) + 2^10) >> 11, 0, 2^bd - 1)
Pixels outside the plane are the nearest edge pixel (dav1d's edge extension); the 64-row stripe
boundaries of the real decoder (pre-CDEF rows above and below each stripe) are not modelled.
Returns the restored plane, int16 [H, W].
"""
import torch

META = {
    "name": "wiener_restoration",
    "level": 2,
    "category": "video-postfilter",
    "dtypes": ["int16"],
    "tolerance": {"int16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"H": 100, "W": 200, "unit": 64},
        "ragged": {"H": 110, "W": 170, "unit": 64},
        "large": {"H": 2160, "W": 3840, "unit": 256},
    },
    "baseline_notes": "One launch over the whole plane: grid (column tiles of 64, row tiles of 16); the tile "
                      "size divides every unit size, so each program reads its unit's six taps as scalars "
                      "(unit row/column = min(tile origin // unit, units - 1)); per vertical tap the 7 "
                      "horizontal taps are re-read (clamped) and rounded as in dav1d. 4 warps, no autotune.",
    "deterministic": True,
}
BITDEPTH = 10


def unit_grid(h: int, w: int, unit: int) -> tuple:
    """(unit rows, unit columns) of the AV1 restoration-unit layout."""
    return max((h + unit // 2) // unit, 1), max((w + unit // 2) // unit, 1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """10-bit plane int16 [H, W], per-unit taps int32 [units, 2, 3] (horizontal, vertical), unit size."""
    s = META["sizes"][size]
    h, w, unit = s["H"], s["W"], s["unit"]
    g = torch.Generator().manual_seed(seed)
    yy = torch.arange(h, dtype=torch.float32)[:, None]
    xx = torch.arange(w, dtype=torch.float32)[None, :]
    base = 480.0 + 260.0 * torch.sin(xx / 97.0 + 0.5 * torch.cos(yy / 61.0)) * torch.cos(yy / 143.0)
    texture = 40.0 * torch.sin(xx / 3.1) * torch.sin(yy / 4.7)
    noise = torch.randn(h, w, generator=g) * 18.0  # coding noise the filter is there to remove
    plane = (base + texture + noise).round().clamp(0, (1 << BITDEPTH) - 1).to(torch.int16)
    nr, nc = unit_grid(h, w, unit)
    # around libaom's WIENER_FILT_TAP*_MIDV (3, -7, 15), inside the coded ranges [-5,10], [-23,8], [-17,46]
    mid = torch.tensor([3, -7, 15])
    lo, hi = torch.tensor([-5, -23, -17]), torch.tensor([10, 8, 46])
    taps = mid + torch.randint(-6, 7, (nr * nc, 2, 3), generator=g)
    taps = torch.maximum(torch.minimum(taps, hi), lo)
    off = torch.rand(nr * nc, generator=g) < 0.15  # RESTORE_NONE units
    taps[off] = 0
    return plane.to(device), taps.to(torch.int32).to(device), unit


def reference(plane: torch.Tensor, taps: torch.Tensor, unit: int) -> torch.Tensor:
    h, w = plane.shape
    nr, nc = unit_grid(h, w, unit)
    dev = plane.device
    bd = BITDEPTH
    rows = torch.arange(h, device=dev)
    cols = torch.arange(w, device=dev)
    uid = (torch.clamp(rows // unit, max=nr - 1)[:, None] * nc + torch.clamp(cols // unit, max=nc - 1)[None, :])
    t = taps.long()
    full = torch.stack([t[..., 0], t[..., 1], t[..., 2], 128 - 2 * t.sum(-1), t[..., 2], t[..., 1], t[..., 0]], -1)
    fh, fv = full[:, 0, :][uid], full[:, 1, :][uid]          # [H, W, 7] per-pixel filters of its unit
    src = plane.long()
    out = torch.zeros(h, w, dtype=torch.long, device=dev)
    for k in range(7):
        r = torch.clamp(rows + k - 3, 0, h - 1)
        acc = torch.full((h, w), 1 << (bd + 6), dtype=torch.long, device=dev)
        for j in range(7):
            c = torch.clamp(cols + j - 3, 0, w - 1)
            acc += fh[..., j] * src[r][:, c]
        hor = torch.clamp((acc + 4) >> 3, 0, (1 << 15) - 1)
        out += fv[..., k] * hor
    out = torch.clamp((out - (1 << (bd + 10)) + (1 << 10)) >> 11, 0, (1 << bd) - 1)
    return out.to(torch.int16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 4 * n, "flops": 2 * 56 * n}
