"""Edge placement error (EPE) check of the ICCAD 2013 contest, OpenILT pyilt/evaluation.py epecheck.

Every target edge segment (a maximal vertical or horizontal run of boundary pixels) gets check sites: one at
its centre when it is at most MIN_EPE_CHECK_LENGTH = 80 px long, else sites every EPE_CHECK_INTERVAL = 40 px
walking in from both ends, lo + 40, lo + 80, ... <= centre and hi - 40, hi - 80, ... > centre (centre =
(lo + hi) // 2). At each site the printed (binary) wafer image is probed EPE_CONSTRAINT = 15 px either side of
the edge along its normal: the inner probe must print (else an inner violation), the outer must not (else an
outer violation). Probes outside the clip read as unprinted. 1 px = 1 nm.
segments int32 [n, 5] = (horizontal, fixed, lo, hi, inward): a vertical edge lies in column `fixed` over rows
lo..hi, a horizontal one in row `fixed` over columns lo..hi, and the shape's interior is on side `inward`
(+1 / -1) of it. Returns int32 [2] = (inner violations, outer violations).
"""
import torch

META = {
    "name": "epe_check",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"H": 512, "W": 512},
        "ragged": {"H": 533, "W": 611},
        "large": {"H": 2048, "W": 2048},
    },
    "baseline_notes": "One launch, one program per edge segment (4 warps, BLOCK = 64 check sites, enough for a "
                      "2048 px edge): the program derives its sites from (lo, hi), gathers the inner and outer "
                      "probes of the printed image, and adds its two violation counts with two int32 atomics "
                      "(exact, order-independent). No autotune.",
    "deterministic": True,
}
EPE_CONSTRAINT = 15
EPE_CHECK_INTERVAL = 40
MIN_EPE_CHECK_LENGTH = 80


def _randint(g: torch.Generator, lo: int, hi: int) -> int:
    return int(torch.randint(lo, hi + 1, (), generator=g))


def _metal_clip(H: int, W: int, g: torch.Generator) -> list:
    """Horizontal M1 wires (48-80 nm wide) on a 128 nm track pitch, 48 nm clear of the clip border."""
    rects, margin, row = [], 48, 48
    while row + 80 < H - margin:
        width = _randint(g, 48, 80)
        col = margin + _randint(g, 0, 60)
        while W - margin - col >= 120:
            length = _randint(g, 120, min(600, W - margin - col))
            rects.append((row, row + width, col, col + length))
            col += length + _randint(g, 60, 160)
        row += 128
    return rects


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """printed [H, W] (0/1), segments int32 [n, 5], and the EPE constraint, check interval and minimum
    check length (ints)."""
    s = META["sizes"][size]
    H, W = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    printed = torch.zeros(H, W)
    segs = []
    for r0, r1, c0, c1 in _metal_clip(H, W, g):
        # target boundary runs (inclusive pixel ranges) with the side of the interior
        segs += [(0, c0, r0, r1 - 1, 1), (0, c1 - 1, r0, r1 - 1, -1),
                 (1, r0, c0, c1 - 1, 1), (1, r1 - 1, c0, c1 - 1, -1)]
        # printed shape: each edge moved by a few nm (positive = inward), line ends pulled back ~8 nm more
        d = [int(v) for v in (torch.randn(4, generator=g) * 9.0).round().clamp(-30, 30)]
        top, bot = r0 + d[0], r1 - d[1]
        left, right = c0 + d[2] + 8, c1 - d[3] - 8
        if bot > top and right > left:
            printed[max(top, 0):min(bot, H), max(left, 0):min(right, W)] = 1.0
    segments = torch.tensor(segs, dtype=torch.int32)
    return (printed.to(dtype=dt).to(device), segments.to(device),
            EPE_CONSTRAINT, EPE_CHECK_INTERVAL, MIN_EPE_CHECK_LENGTH)


def reference(printed: torch.Tensor, segments: torch.Tensor, constraint: int, interval: int,
              min_len: int) -> torch.Tensor:
    H, W = printed.shape
    inner = outer = 0
    for horizontal, fixed, lo, hi, inward in segments.tolist():
        centre = (lo + hi) // 2
        if hi - lo <= min_len:
            sites = [centre]
        else:
            sites = list(range(lo + interval, centre + 1, interval)) + list(range(hi - interval, centre, -interval))
        sites = torch.tensor(sorted(set(sites)), dtype=torch.long, device=printed.device)

        def probe(at: int) -> torch.Tensor:
            rows, cols = (torch.full_like(sites, at), sites) if horizontal else (sites, torch.full_like(sites, at))
            ok = (rows >= 0) & (rows < H) & (cols >= 0) & (cols < W)
            vals = torch.zeros(sites.shape, dtype=printed.dtype, device=printed.device)
            vals[ok] = printed[rows[ok], cols[ok]]
            return vals

        inner += int((probe(fixed + constraint * inward) == 0).sum())
        outer += int((probe(fixed - constraint * inward) != 0).sum())
    return torch.tensor([inner, outer], dtype=torch.int32, device=printed.device)


def cost(size: str, dtype: str | None = None) -> dict:
    """20 bytes per segment record plus two gathered probes (one 32-byte sector each) per check site."""
    _, segments, _, interval, min_len = make_inputs(size, dtype=dtype)
    lo, hi = segments[:, 2].long(), segments[:, 3].long()
    centre = (lo + hi) // 2
    long_ = (hi - lo) > min_len
    n_sites = torch.where(long_, (centre - lo - interval) // interval + 1 + (hi - interval - centre - 1) // interval + 1,
                          torch.ones_like(lo))
    return {"bytes": 20 * segments.shape[0] + 64 * int(n_sites.sum()), "flops": 0}
