"""One expansion step of hnswlib's layer-0 beam search (searchBaseLayerST), batched over queries.

Each query has popped its closest candidate c and now visits c's layer-0 link list: linklist
size cnt (<= M0 = 2*M slots) and neighbour ids. hnswlib skips neighbours the query has already
visited (its VisitedList probe, given here as `visited` flags per slot), computes
L2Sqr(query, data(id)) for the others, and keeps a neighbour only when the result list is not full
yet or the distance beats lowerBound (the current worst of the ef results; +inf while the list is
not full). Returns dist [Q, M0] fp32: the squared L2 distance for every kept neighbour, +inf for
empty slots, visited neighbours and neighbours that do not beat the bound.
"""
import torch

META = {
    "name": "hnsw_layer0_neighbour_l2",
    "level": 2,
    "category": "vector-search",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-5}},
    "sizes": {
        "small": {"Q": 4, "N": 256, "D": 128, "M0": 32},
        "ragged": {"Q": 7, "N": 301, "D": 100, "M0": 32},
        "large": {"Q": 32768, "N": 1000000, "D": 128, "M0": 32},
    },
    "baseline_notes": "One program per query: loads the link-list count, the M0 neighbour ids and their visited "
                      "flags, then gathers only the rows of unvisited neighbours (the load is masked by "
                      "slot < cnt & !visited) as one [M0, BLOCK_D] tile, reduces the squared differences along "
                      "the contiguous axis and stores dist or +inf. 4 warps, no autotune.",
    "deterministic": True,
}
VISITED_FRACTION = 0.75  # share of a later hop's neighbours the query has already visited


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """SIFT-like base vectors [N, D] (integer-valued 0..127, as SIFT1M's uint8 descriptors stored in
    float), queries [Q, D], link lists [Q, M0] int32 with their counts [Q] int32 (slots past the
    count hold stale ids), visited flags [Q, M0] int8 and lowerBound [Q] fp32."""
    s = META["sizes"][size]
    q, n, d, m0 = s["Q"], s["N"], s["D"], s["M0"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    base = torch.randint(0, 128, (n, d), generator=g, dtype=torch.int32).to(dt)
    query = torch.randint(0, 128, (q, d), generator=g, dtype=torch.int32).to(dt)
    links = torch.randint(0, n, (q, m0), generator=g, dtype=torch.int32)
    count = torch.randint(m0 // 2, m0 + 1, (q,), generator=g, dtype=torch.int32)
    visited = (torch.rand(q, m0, generator=g) < VISITED_FRACTION).to(torch.int8)
    # lowerBound near the median pair distance (D * 2 * var(U{0..127}) ~ 2730 * D); a quarter of the
    # queries still have a result list shorter than ef (bound +inf). Half-integers: no ties with the
    # integer-valued distances.
    bound = torch.floor(2730.0 * d * (0.85 + 0.25 * torch.rand(q, generator=g))) + 0.5
    bound = torch.where(torch.rand(q, generator=g) < 0.25, torch.full_like(bound, float("inf")), bound)
    return (query.to(device), base.to(device), links.to(device), count.to(device),
            visited.to(device), bound.to(device=device, dtype=dt))


def reference(query, base, links, count, visited, bound) -> torch.Tensor:
    q, m0 = links.shape
    slot = torch.arange(m0, device=links.device)
    out = torch.empty(q, m0, dtype=query.dtype, device=query.device)
    for start in range(0, q, 4096):
        sl = slice(start, start + 4096)
        rows = base[links[sl].long()].double()
        dist = (rows - query[sl, None, :].double()).pow(2).sum(-1)
        keep = (slot[None, :] < count[sl, None]) & (visited[sl] == 0) & (dist < bound[sl, None].double())
        out[sl] = torch.where(keep, dist, torch.full_like(dist, float("inf"))).to(query.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    q, d, m0 = s["Q"], s["D"], s["M0"]
    fresh = 0.75 * (1.0 - VISITED_FRACTION)  # mean fill 24/32, a quarter of those unvisited
    return {"bytes": int(q * (4 * d + 4 + m0 * 9 + 4 + fresh * m0 * 4 * d)), "flops": int(3 * q * m0 * d * fresh)}
