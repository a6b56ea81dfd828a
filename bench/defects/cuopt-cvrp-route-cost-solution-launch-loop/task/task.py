"""CVRP route cost of every route in a population of solutions (cuOpt-style batched route evaluation).

routes[p, r, :] is route r of solution p as node ids padded to L stops: the depot 0, the visited
customers, then the depot 0 repeated. A route's cost is its travelled distance
sum_k dist[route[k], route[k + 1]] plus penalty * max(0, sum_k demand[route[k]] - capacity).
"""
import torch

META = {
    "name": "cvrp_route_cost",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"P": 3, "R": 5, "L": 8, "NODES": 21},
        "ragged": {"P": 4, "R": 7, "L": 13, "NODES": 37},
        "large": {"P": 256, "R": 128, "L": 32, "NODES": 1001},
    },
    "baseline_notes": "One launch over all P * R routes, 32 routes per program as a [32, next_power_of_2(L)] "
                      "tile: gathers the leg distances from the dense matrix and the stop demands, two row sums, "
                      "capacity penalty; 4 warps, no autotune.",
    "deterministic": True,
}

CAPACITY = 200.0
PENALTY = 50.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """routes [P, R, L] int32, dist [NODES, NODES], demand [NODES], capacity, penalty."""
    s = META["sizes"][size]
    P, R, L, n = s["P"], s["R"], s["L"], s["NODES"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    xy = torch.rand(n, 2, generator=g, dtype=torch.float64) * 500.0
    dist = torch.round(torch.cdist(xy, xy) * 10.0) / 10.0
    demand = torch.randint(1, 41, (n,), generator=g).double()
    demand[0] = 0.0
    stops = torch.randint(0, L - 1, (P, R), generator=g)
    ids = torch.randint(1, n, (P, R, L), generator=g)
    pos = torch.arange(L)
    visit = (pos >= 1) & (pos[None, None, :] <= stops[..., None])
    routes = torch.where(visit, ids, torch.zeros_like(ids)).to(torch.int32)
    return (routes.to(device), dist.to(dt).to(device), demand.to(dt).to(device), CAPACITY, PENALTY)


def reference(routes, dist, demand, capacity, penalty):
    r = routes.long()
    legs = dist.double()[r[..., :-1], r[..., 1:]].sum(-1)
    load = demand.double()[r].sum(-1)
    return (legs + penalty * torch.clamp(load - capacity, min=0.0)).to(dist.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    stops = s["P"] * s["R"] * s["L"]
    return {"bytes": 4 * stops + 8 * stops + 4 * s["P"] * s["R"], "flops": 3 * stops}
