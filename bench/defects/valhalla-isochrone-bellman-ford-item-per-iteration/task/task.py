"""Travel-time isochrone over a city road graph (Valhalla isochrone service), as GPU Bellman-Ford.

Valhalla's isochrone expands a Dijkstra tree from the origin until the time horizon (the largest
contour) and colours the road network by the time it is reached. The GPU port relaxes all nodes in
rounds (pull-style Bellman-Ford / Jacobi over the reverse CSR: every node takes the minimum of its
own label and label(u) + t(u, v) over its in-edges), pruning labels beyond the horizon, until a
round changes nothing.

Inputs: row_ptr int32 [N + 1] (in-edges of node v are row_ptr[v]:row_ptr[v + 1]), src int32 [E] (tail of
each in-edge), secs int32 [E] (edge travel time in deciseconds, OSRM/Valhalla-style integer weights),
origin (int node id), horizon (int, deciseconds).
Output: int32 [N] travel time from the origin in deciseconds, 2**31 - 1 where the node is not
reached within the horizon.
"""
import torch

META = {
    "name": "isochrone_bellman_ford",
    "level": 2,
    "category": "routing",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"W": 12, "H": 12, "horizon_min": 2},
        "ragged": {"W": 13, "H": 9, "horizon_min": 2},
        "large": {"W": 1024, "H": 1024, "horizon_min": 30},
    },
    "baseline_notes": "One init launch, then one relaxation launch per Bellman-Ford round (BLOCK=256 nodes per "
                      "program, loop over the block's largest in-degree), ping-ponging two label buffers; each round "
                      "flags changed[round] on the device and the host reads the flag back only every 32 rounds. "
                      "4 warps, no autotune.",
    "deterministic": True,
}
UNREACHED = 2**31 - 1


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A W x H street grid: 60-200 m blocks, 50 km/h arterials every 8th street, 30 km/h residential streets,
    15% of residential streets one-way; the origin is the central intersection."""
    s = META["sizes"][size]
    w, h = s["W"], s["H"]
    g = torch.Generator().manual_seed(seed)
    node = torch.arange(w * h).reshape(h, w)
    tails, heads, arterial = [], [], []
    for a, b, art in ((node[:, :-1], node[:, 1:], (torch.arange(h) % 8 == 0)[:, None].expand(h, w - 1)),
                      (node[:-1, :], node[1:, :], (torch.arange(w) % 8 == 0)[None, :].expand(h - 1, w))):
        tails.append(a.reshape(-1))
        heads.append(b.reshape(-1))
        arterial.append(art.reshape(-1))
    a, b, art = torch.cat(tails), torch.cat(heads), torch.cat(arterial)
    length = 60.0 + 140.0 * torch.rand(a.numel(), generator=g, dtype=torch.float64)
    speed = torch.where(art, 50.0, 30.0) / 3.6
    t = torch.clamp(torch.round(10.0 * length / speed), min=1).to(torch.int64)
    oneway = (~art) & (torch.rand(a.numel(), generator=g) < 0.15)
    backward = torch.rand(a.numel(), generator=g) < 0.5          # which direction a one-way street keeps
    keep_ab = ~(oneway & backward)
    keep_ba = ~(oneway & ~backward)
    src = torch.cat([a[keep_ab], b[keep_ba]])
    dst = torch.cat([b[keep_ab], a[keep_ba]])
    secs = torch.cat([t[keep_ab], t[keep_ba]])
    order = torch.argsort(dst * (w * h) + src)
    src, dst, secs = src[order], dst[order], secs[order]
    row_ptr = torch.zeros(w * h + 1, dtype=torch.int64)
    row_ptr[1:] = torch.cumsum(torch.bincount(dst, minlength=w * h), dim=0)
    origin = int(node[h // 2, w // 2])
    horizon = 600 * s["horizon_min"]
    return (row_ptr.to(torch.int32).to(device), src.to(torch.int32).to(device),
            secs.to(torch.int32).to(device), origin, horizon)


def reference(row_ptr: torch.Tensor, src: torch.Tensor, secs: torch.Tensor, origin: int, horizon: int) -> torch.Tensor:
    n = row_ptr.numel() - 1
    first, deg = row_ptr[:-1].long(), (row_ptr[1:] - row_ptr[:-1]).long()
    slot = torch.arange(int(deg.max()), device=src.device)
    valid = slot[None, :] < deg[:, None]                       # in-edges padded to the largest in-degree
    edge = torch.where(valid, first[:, None] + slot[None, :], 0)
    s, t = src.long()[edge], secs.long()[edge]
    dist = torch.full((n,), UNREACHED, dtype=torch.int64, device=src.device)
    dist[origin] = 0
    while True:
        du = dist[s]
        cand = torch.where(valid & (du < UNREACHED) & (du + t <= horizon), du + t, UNREACHED)
        new = torch.minimum(dist, cand.min(dim=1).values)
        if torch.equal(new, dist):
            return dist.to(torch.int32)
        dist = new


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["W"] * s["H"]
    return {"bytes": 4 * (2 * n + 3 * 4 * n), "flops": 2 * 4 * n}
