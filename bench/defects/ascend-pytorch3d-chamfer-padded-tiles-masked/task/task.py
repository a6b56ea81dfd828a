"""Per-point terms of pytorch3d.loss.chamfer_distance on a heterogeneous (padded) batch of point clouds.

chamfer_distance(x, y, x_lengths, y_lengths) runs knn_points(K=1) in both directions; cloud n holds only
x_lengths[n] (resp. y_lengths[n]) real points, the rest of the padded tensor is padding (pad value 0.0):
    cham_x[n, i] = min_{j < y_lengths[n]} ||x[n, :, i] - y[n, :, j]||^2   for i < x_lengths[n], else 0
    cham_y[n, j] = min_{i < x_lengths[n]} ||y[n, :, j] - x[n, :, i]||^2   for j < y_lengths[n], else 0
The loss is then sum_i cham_x[n, i] / x_lengths[n] + sum_j cham_y[n, j] / y_lengths[n] averaged over the
batch (point_reduction="mean", batch_reduction="mean"), a few-KB reduction outside this kernel.
Points come coordinate-major, x [N, 3, P1] and y [N, 3, P2], the [B, C, P] layout that point-cloud
completion decoders (PCN / PoinTr heads) emit and feed to the loss.
"""
import torch

META = {
    "name": "chamfer_distance_padded",
    "level": 2,
    "category": "nearest-neighbour",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 3, "P1": 40, "P2": 56},
        "ragged": {"N": 5, "P1": 77, "P2": 131},
        "large": {"N": 16, "P1": 16384, "P2": 16384},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) stride over tiles of 64 query points of each "
                      "cloud, only up to that cloud's length; each tile streams the other cloud's real points "
                      "(loop bound = its length) in tiles of 128, squared distances of the [64, 128] pair tile "
                      "on the vector unit, running row minimum; one launch per direction; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, 3, P1], y [N, 3, P2] (padding zeroed), x_lengths [N], y_lengths [N] int64.

    Lengths are uniform in [P/8, P] (object crops of LiDAR / RGB-D scans of very different density);
    one cloud of each side has the full padded length, as Pointclouds pads to the longest.
    """
    s = META["sizes"][size]
    N, P1, P2 = s["N"], s["P1"], s["P2"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x_len = torch.randint(max(1, P1 // 8), P1 + 1, (N,), generator=g)
    y_len = torch.randint(max(1, P2 // 8), P2 + 1, (N,), generator=g)
    x_len[0] = P1
    y_len[N - 1] = P2
    x = torch.randn(N, 3, P1, generator=g) * torch.tensor([0.6, 0.3, 0.4])[None, :, None]
    y = x[:, :, torch.randint(0, P1, (P2,), generator=g)] + 0.03 * torch.randn(N, 3, P2, generator=g)
    x = x.masked_fill(torch.arange(P1)[None, None, :] >= x_len[:, None, None], 0.0)
    y = y.masked_fill(torch.arange(P2)[None, None, :] >= y_len[:, None, None], 0.0)
    return (x.to(dt).contiguous().to(device), y.to(dt).contiguous().to(device),
            x_len.to(device), y_len.to(device))


def _nn_dist2(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """min_j ||a_i - b_j||^2 for a [Pa, 3], b [Pb, 3] in float64, query chunks of 2048."""
    bn = (b * b).sum(-1)
    out = []
    for i0 in range(0, a.shape[0], 2048):
        q = a[i0:i0 + 2048]
        d = (q * q).sum(-1)[:, None] + bn[None, :] - 2.0 * q @ b.T
        out.append(d.clamp_min(0.0).min(dim=1).values)
    return torch.cat(out)


def reference(x: torch.Tensor, y: torch.Tensor, x_lengths: torch.Tensor, y_lengths: torch.Tensor) -> tuple:
    N, _, P1 = x.shape
    P2 = y.shape[2]
    cham_x = torch.zeros(N, P1, dtype=torch.float64, device=x.device)
    cham_y = torch.zeros(N, P2, dtype=torch.float64, device=x.device)
    for n in range(N):
        lx, ly = int(x_lengths[n]), int(y_lengths[n])
        a = x[n, :, :lx].T.double()
        b = y[n, :, :ly].T.double()
        cham_x[n, :lx] = _nn_dist2(a, b)
        cham_y[n, :ly] = _nn_dist2(b, a)
    return cham_x.to(x.dtype), cham_y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    """Work over the real points only (the lengths of seed 0): 9 flops per pair and direction."""
    s = META["sizes"][size]
    N, P1, P2 = s["N"], s["P1"], s["P2"]
    g = torch.Generator().manual_seed(0)
    x_len = torch.randint(max(1, P1 // 8), P1 + 1, (N,), generator=g)
    y_len = torch.randint(max(1, P2 // 8), P2 + 1, (N,), generator=g)
    x_len[0] = P1
    y_len[N - 1] = P2
    pairs = int((x_len * y_len).sum())
    return {"bytes": 16 * int(x_len.sum() + y_len.sum()), "flops": 2 * 9 * pairs}
