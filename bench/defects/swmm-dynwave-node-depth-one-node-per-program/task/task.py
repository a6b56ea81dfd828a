"""EPA SWMM dynamic-wave routing: the node half of one Picard trial (dynwave.c updateNodeFlows + setNodeDepth).

Links (conduits) carry flows q [L] (positive from their upstream node1 to their downstream node2) and expose a
free-surface area a_surf [L] (top width x length at the current depth), half of which belongs to each end node.
The node-link incidence is given in CSR form sorted by node: node_ptr [N + 1], inc_link [E] (link id) and
inc_dir [E] (+1 where the node is the link's node2, -1 where it is its node1), E = 2 L. For every node i
(outfall stages are set elsewhere and not modelled here):
    net_i  = lat_i + sum_k inc_dir[k] * q[inc_link[k]]                           (net inflow, m^3/s)
    area_i = max(a_node_i + 0.5 * sum_k a_surf[inc_link[k]], MIN_SURFAREA)      (m^2)
    y      = y_old_i + 0.5 * (net_old_i + net_i) * dt / area_i                    (continuity)
    y      = (1 - omega) * y_last_i + omega * y                                   (under-relaxation)
    y_new  = clamp(y, 0, y_full_i)                                                (excess volume floods)
Returns (y_new [N] fp32, net [N] fp32).
"""
import torch

META = {
    "name": "swmm_node_depth",
    "level": 2,
    "category": "graph",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 48},
        "ragged": {"N": 77},
        "large": {"N": 1_000_000},
    },
    "baseline_notes": "1-D grid over nodes, 128 junctions per program: node_ptr bounds as vectors, one "
                      "[128, 8] masked gather of incident link ids / directions, then of link flows and "
                      "surface areas, row sums along the incidence axis, vector node loads and stores. "
                      "4 warps, no autotune.",
    "deterministic": True,
}
MAX_DEGREE = 8          # the kernels gather at most this many incident links per node
MIN_SURFAREA = 1.167    # SWMM's MinSurfArea, 12.566 ft^2, in m^2
SUBSYSTEM = 25_000      # nodes per drainage subsystem (one outfall each)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A storm-sewer network numbered along its trunks: each junction drains to one of the two previous
    junctions (branching), every 20th junction has a relief link 7 junctions downstream (loops), and every
    SUBSYSTEM-th node is an outfall. Returns node_ptr, inc_link, inc_dir, q, a_surf, y_old, y_last, net_old,
    lat, a_node, y_full, dt, omega."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    sub = min(SUBSYSTEM, max(8, n // 3))
    i = torch.arange(n)
    start = (i // sub) * sub
    down = i - 1 - (torch.rand(n, generator=g) < 0.3).long()
    drains = (i - start) >= 2
    down = torch.where(i - start == 1, i - 1, down)
    tree_up = i[drains | (i - start == 1)]
    tree_dn = down[drains | (i - start == 1)]
    relief = (i % 20 == 0) & (i - start >= 7)
    node1 = torch.cat([tree_up, i[relief]])
    node2 = torch.cat([tree_dn, i[relief] - 7])
    n_links = node1.numel()
    ends = torch.cat([node1, node2])
    links = torch.cat([torch.arange(n_links), torch.arange(n_links)])
    dirs = torch.cat([-torch.ones(n_links), torch.ones(n_links)])
    order = torch.sort(ends, stable=True).indices
    counts = torch.bincount(ends, minlength=n)
    assert int(counts.max()) <= MAX_DEGREE
    node_ptr = torch.zeros(n + 1, dtype=torch.int32)
    node_ptr[1:] = torch.cumsum(counts, 0).to(torch.int32)
    inc_link = links[order].to(torch.int32)
    inc_dir = dirs[order]
    # flows grow towards the outfalls; a few reverse (surcharged loops)
    q = 0.02 + 0.5 * torch.rand(n_links, generator=g)
    q = torch.where(torch.rand(n_links, generator=g) < 0.05, -0.3 * q, q)
    a_surf = 0.6 * (30.0 + 70.0 * torch.rand(n_links, generator=g))          # top width x length
    y_full = 1.5 + 3.0 * torch.rand(n, generator=g)
    y_old = y_full * 0.6 * torch.rand(n, generator=g)
    y_last = (y_old + 0.05 * torch.randn(n, generator=g)).clamp(min=0.0)
    net_old = 0.05 * torch.randn(n, generator=g)
    lat = 0.01 * torch.rand(n, generator=g)
    a_node = torch.where(torch.rand(n, generator=g) < 0.02, 200.0 + 800.0 * torch.rand(n, generator=g),
                         torch.full((n,), 1.167))                              # manholes, a few storage units
    f = lambda t: t.to(device=device, dtype=dt_).contiguous()
    ix = lambda t: t.to(device=device).contiguous()
    return (ix(node_ptr), ix(inc_link), f(inc_dir), f(q), f(a_surf), f(y_old), f(y_last), f(net_old), f(lat),
            f(a_node), f(y_full), 5.0, 0.5)


def reference(node_ptr, inc_link, inc_dir, q, a_surf, y_old, y_last, net_old, lat, a_node, y_full,
              dt: float, omega: float) -> tuple:
    n = y_old.numel()
    deg = (node_ptr[1:] - node_ptr[:-1]).long()
    node = torch.repeat_interleave(torch.arange(n, device=q.device), deg)
    link = inc_link.long()
    net = lat.double().index_add(0, node, inc_dir.double() * q.double()[link])
    area = a_node.double().index_add(0, node, 0.5 * a_surf.double()[link]).clamp(min=MIN_SURFAREA)
    y = y_old.double() + 0.5 * (net_old.double() + net) * dt / area
    y = (1.0 - omega) * y_last.double() + omega * y
    y = torch.minimum(y.clamp(min=0.0), y_full.double())
    return y.to(q.dtype), net.to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 4 * (9 * n + 2 * 2 * n + 2 * 2 * n), "flops": 20 * n}
