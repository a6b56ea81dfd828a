"""NequIP convolution aggregation: per-edge messages summed onto their centre atoms (Ascend port).

In NequIP's InteractionBlock the tensor product of the neighbour features with the edge spherical
harmonics gives one message per directed edge (i <- j); the messages are then summed onto the
centre atom and normalised by the average neighbour count:
    out[i, :] = sum_{e : center(e) = i} edge_features[e, :] / sqrt(avg_num_neighbors)
(`scatter(edge_features, edge_center, dim=0, dim_size=N)` then `.div(avg_num_neighbors ** 0.5)`).
The edges come from an ASE / matscipy style neighbour list, which is ordered by the centre atom,
so edge_center is sorted and center_ptr [N+1] is its CSR offset array (edges of atom i are
center_ptr[i] .. center_ptr[i+1]-1; atoms can have no edge). Features are 32x0o+32x0e+32x1o+32x1e
(256 channels) at large.
"""
import torch

META = {
    "name": "nequip_conv_aggregate",
    "level": 2,
    "category": "graph-scatter",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 40, "F": 64, "nb_lo": 0, "nb_hi": 12},
        "ragged": {"N": 77, "F": 96, "nb_lo": 0, "nb_hi": 21},
        "large": {"N": 8192, "F": 256, "nb_lo": 16, "nb_hi": 48},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over centre atoms; each reads its CSR "
                      "range from center_ptr and sums its edges' contiguous [16, F] feature tiles along "
                      "the edge axis in registers, then stores the scaled row once: no atomics, "
                      "output allocated with torch.empty; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """edge_features [E, F], edge_center [E] int32 (sorted), center_ptr [N+1] int32, avg_num_neighbors."""
    s = META["sizes"][size]
    n, f = s["N"], s["F"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    counts = torch.randint(s["nb_lo"], s["nb_hi"] + 1, (n,), generator=g)
    center = torch.repeat_interleave(torch.arange(n), counts)
    ptr = torch.zeros(n + 1, dtype=torch.int64)
    ptr[1:] = torch.cumsum(counts, 0)
    feats = torch.randn(int(ptr[-1]), f, generator=g)
    avg = float(counts.double().mean()) if n else 1.0
    return (feats.to(device=device, dtype=dt), center.to(device=device, dtype=torch.int32),
            ptr.to(device=device, dtype=torch.int32), avg)


def reference(edge_features: torch.Tensor, edge_center: torch.Tensor, center_ptr: torch.Tensor,
              avg_num_neighbors: float) -> torch.Tensor:
    n = center_ptr.shape[0] - 1
    out = torch.zeros(n, edge_features.shape[1], dtype=torch.float64, device=edge_features.device)
    out.index_add_(0, edge_center.long(), edge_features.double())
    return (out / avg_num_neighbors ** 0.5).to(edge_features.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    e = s["N"] * (s["nb_lo"] + s["nb_hi"]) // 2
    return {"bytes": 4 * e * s["F"] + 4 * e + 4 * (s["N"] + 1) + 4 * s["N"] * s["F"], "flops": e * s["F"]}
