"""minimap2 anchor chaining DP (mm_chain_dp), in the fixed-window form of minimap2's GPU ports.

A read's minimizer anchors are sorted by x = (target id << 32) | target position, with y = query
position; every seed spans SPAN = k = 15 bases. For each anchor i (in order) the chaining score is

    f[i] = max(SPAN, max_j f[j] + sc(j, i)),   j over the previous max_iter (64) anchors of the read

where sc(j, i) exists only when dr = x_i - x_j and dq = y_i - y_j satisfy 0 < dr <= max_dist,
0 < dq <= max_dist and dd = |dr - dq| <= bw, and then

    sc(j, i) = min(min(dr, dq), SPAN) - (dd * SPAN) // 100 - (ilog2(dd) >> 1)

(the integer form of minimap2's gap cost 0.01 * avg_span * dd + log2(dd) / 2, ilog2(0) = 0).
p[i] is the predecessor that gave the maximum (the nearest one on ties, as minimap2 scans j downward
with a strict >), or -1 when f[i] = SPAN. Returns (f int32 [N], p int32 [N], global anchor indices).
"""
import torch

META = {
    "name": "minimap2_chain_dp",
    "level": 3,
    "category": "bioinformatics",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"reads": 3, "min_anchors": 6, "max_anchors": 40},
        "ragged": {"reads": 7, "min_anchors": 1, "max_anchors": 77},
        "large": {"reads": 1024, "min_anchors": 400, "max_anchors": 3000},
    },
    "baseline_notes": "One launch, one program per read (grid = reads, 1 warp): the program walks its "
                      "anchors in order and keeps the last 64 anchors' x, y, f and index in a register "
                      "ring, scores all 64 predecessors at once and takes the max (nearest j on ties).",
    "deterministic": True,
}
MAX_DIST = 5000   # minimap2 map-ont max gap (-g) on both sequences
BANDWIDTH = 500   # -r
MAX_ITER = 64     # predecessors looked at per anchor
SPAN = 15         # k


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Anchors of a batch of ONT reads: ~70% on one colinear locus per read, the rest repeats/noise."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    counts = torch.randint(s["min_anchors"], s["max_anchors"] + 1, (s["reads"],), generator=g)
    xs, ys = [], []
    for n in counts.tolist():
        read_len = 6 * n + 64
        n_true = (7 * n) // 10
        n_near = (n - n_true) // 2
        n_far = n - n_true - n_near
        rid = int(torch.randint(0, 48, (1,), generator=g))
        t0 = int(torch.randint(0, 200_000_000, (1,), generator=g))
        q_true = torch.sort(torch.randint(0, read_len, (n_true,), generator=g)).values
        drift = torch.cumsum(torch.randint(-3, 4, (n_true,), generator=g)
                             * (torch.rand(n_true, generator=g) < 0.15), 0)
        t_true = t0 + q_true + drift
        q_near = torch.randint(0, read_len, (n_near,), generator=g)
        t_near = t0 + torch.randint(-20_000, 20_000 + read_len, (n_near,), generator=g)
        q_far = torch.randint(0, read_len, (n_far,), generator=g)
        r_far = torch.randint(0, 48, (n_far,), generator=g)
        t_far = torch.randint(0, 200_000_000, (n_far,), generator=g)
        rids = torch.cat([torch.full((n_true + n_near,), rid), r_far])
        tpos = torch.cat([t_true, t_near, t_far]).clamp(min=0)
        x = (rids.long() << 32) | tpos.long()
        y = torch.cat([q_true, q_near, q_far])
        order = torch.sort(x, stable=True).indices
        xs.append(x[order])
        ys.append(y[order])
    read_off = torch.zeros(len(xs) + 1, dtype=torch.int32)
    read_off[1:] = torch.cumsum(counts, 0).to(torch.int32)
    x = torch.cat(xs).to(torch.int64)
    y = torch.cat(ys).to(torch.int32)
    return (x.to(device), y.to(device), read_off.to(device), MAX_DIST, BANDWIDTH, MAX_ITER, SPAN)


def _ilog2(v: torch.Tensor) -> torch.Tensor:
    """floor(log2(v)) for v >= 1, 0 for v = 0 (exact in fp64 for v < 2**31)."""
    return torch.floor(torch.log2(v.clamp(min=1).double())).long()


def reference(x, y, read_off, max_dist, bw, max_iter, span) -> tuple:
    dev = x.device
    off = read_off.long()
    counts = off[1:] - off[:-1]
    n_reads, n_max = counts.numel(), int(counts.max())
    col = torch.arange(n_max, device=dev)
    live = col[None, :] < counts[:, None]
    gidx = (off[:-1, None] + col[None, :]).clamp(max=max(x.numel() - 1, 0))
    X = torch.where(live, x[gidx], 0)
    Y = torch.where(live, y[gidx].long(), 0)
    F = torch.zeros(n_reads, n_max, dtype=torch.long, device=dev)
    P = torch.full((n_reads, n_max), -1, dtype=torch.long, device=dev)
    neg = -(1 << 40)
    for i in range(n_max):
        lo = max(0, i - max_iter)
        if i == lo:
            F[:, i] = span
            continue
        dr = X[:, i:i + 1] - X[:, lo:i]
        dq = Y[:, i:i + 1] - Y[:, lo:i]
        dd = (dr - dq).abs()
        ok = (dr > 0) & (dr <= max_dist) & (dq > 0) & (dq <= max_dist) & (dd <= bw)
        dg = torch.minimum(dr, dq)
        sc = torch.clamp(dg, max=span) - (dd * span) // 100 - (_ilog2(dd.clamp(0, 1 << 30)) >> 1) + F[:, lo:i]
        sc = torch.where(ok, sc, neg)
        flipped = sc.flip(1)
        best, k = flipped.max(dim=1)  # first max of the flipped window = nearest j
        j = i - 1 - k
        take = best > span
        F[:, i] = torch.where(take, best, torch.full_like(best, span))
        P[:, i] = torch.where(take, off[:-1] + j, torch.full_like(j, -1))
    f = F[live].to(torch.int32)
    p = P[live].to(torch.int32)
    return f, p


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["reads"] * (s["min_anchors"] + s["max_anchors"]) // 2
    return {"bytes": 20 * n, "flops": 40 * MAX_ITER * n}
