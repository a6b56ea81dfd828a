"""Batched radius (ball-query) neighbour search, torch_cluster.radius(x, y, r, batch_x, batch_y,
max_num_neighbors) as PyG's PointNet++ set-abstraction layers call it: for every query point y_i,
the first max_num_neighbors points of ITS OWN cloud (in index order) within distance r, as a
dense [Ny, K] int64 neighbour list padded with -1, plus the number of neighbours kept."""
import torch

META = {
    "name": "ball_query_radius",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 3, "NX": 64, "NY": 24, "K": 8, "R": 0.5},
        "ragged": {"B": 5, "NX": 131, "NY": 45, "K": 12, "R": 0.45},
        "large": {"B": 32, "NX": 1024, "NY": 512, "K": 64, "R": 0.2},
    },
    "baseline_notes": "One program per 16 queries: binary-search the sorted batch_x for the first and last "
                      "query's cloud, then walk only that x range in 64-point tiles; in-range hits are "
                      "ranked with a row cumsum and stored while the running count is < K; -1 padding "
                      "and the counts are written at the end. No autotune.",
    "deterministic": True,
}


def _cloud_sizes(s: dict) -> tuple[list[int], list[int]]:
    """Points per cloud: constant at the PointNet++ sizes, varied (deterministically) otherwise."""
    if s["B"] >= 32:
        return [s["NX"]] * s["B"], [s["NY"]] * s["B"]
    nx = [s["NX"] - (b * 29) % (s["NX"] // 2) for b in range(s["B"])]
    ny = [max(1, n * s["NY"] // s["NX"]) for n in nx]
    return nx, ny


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos_x [Nx, 3], pos_y [Ny, 3] (a subset of each cloud, as farthest-point sampling picks),
    sorted int64 batch_x [Nx] and batch_y [Ny], radius r and max_num_neighbors.

    Each cloud is a noisy ellipsoid surface normalised into the unit ball (ModelNet style) with
    coordinates on a 1/128 grid, so every squared distance is exact in fp32 and no pair sits on
    the r boundary."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    nx, ny = _cloud_sizes(s)
    xs, ys, bx, by = [], [], [], []
    for b in range(s["B"]):
        d = torch.randn(nx[b], 3, generator=g)
        d = d / d.norm(dim=1, keepdim=True)
        p = d * (0.4 + torch.rand(3, generator=g)) + 0.02 * torch.randn(nx[b], 3, generator=g)
        p = p - p.mean(0)
        p = p / p.norm(dim=1).max()
        p = (p * 128).round().clamp(-128, 128) / 128
        pick = torch.randperm(nx[b], generator=g)[: ny[b]].sort().values
        xs.append(p)
        ys.append(p[pick])
        bx.append(torch.full((nx[b],), b, dtype=torch.int64))
        by.append(torch.full((ny[b],), b, dtype=torch.int64))
    pos_x = torch.cat(xs).to(dt).to(device)
    pos_y = torch.cat(ys).to(dt).to(device)
    return pos_x, pos_y, torch.cat(bx).to(device), torch.cat(by).to(device), float(s["R"]), int(s["K"])


def reference(pos_x, pos_y, batch_x, batch_y, r, max_num_neighbors):
    K = max_num_neighbors
    ny = pos_y.shape[0]
    nbr = torch.full((ny, K), -1, dtype=torch.int64, device=pos_y.device)
    num = torch.zeros(ny, dtype=torch.int64, device=pos_y.device)
    nb = int(max(batch_x.max().item(), batch_y.max().item())) + 1
    ids = torch.arange(nb + 1, device=batch_x.device)
    ptr_x = torch.searchsorted(batch_x, ids).tolist()
    ptr_y = torch.searchsorted(batch_y, ids).tolist()
    r2 = float(torch.tensor(r, dtype=torch.float32) ** 2)
    for b in range(nb):
        x0, x1, y0, y1 = ptr_x[b], ptr_x[b + 1], ptr_y[b], ptr_y[b + 1]
        if x1 == x0 or y1 == y0:
            continue
        diff = pos_y[y0:y1, None, :].double() - pos_x[None, x0:x1, :].double()
        inside = (diff * diff).sum(-1) <= r2
        rank = inside.long().cumsum(1) - 1
        rows, cols = (inside & (rank < K)).nonzero(as_tuple=True)
        nbr[y0 + rows, rank[rows, cols]] = x0 + cols
        num[y0:y1] = inside.sum(1).clamp(max=K)
    return nbr, num


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nx, ny = _cloud_sizes(s)
    n_x, n_y = sum(nx), sum(ny)
    pairs = sum(a * b for a, b in zip(nx, ny, strict=True))
    return {"bytes": 20 * n_x + 20 * n_y + 8 * n_y * s["K"] + 8 * n_y, "flops": 9 * pairs}
