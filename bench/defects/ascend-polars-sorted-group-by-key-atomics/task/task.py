"""polars group_by on a sorted key: df.group_by("sensor_id").agg(pl.col("value").sum(), pl.col("value").mean())

When the key column is sorted (flag set by sort or by the reader), polars skips hashing and describes the
groups as slices (GroupsProxy::Slice, [first, len] per group). The device receives the value column,
the sorted dense key (group rank 0..G-1 per row) and the slice boundaries as offsets [G + 1]
(group g is rows offsets[g] .. offsets[g+1]-1, every group non-empty). Returns (sum [G], mean [G]) fp32.
"""
import torch

META = {
    "name": "sorted_group_by_sum_mean",
    "level": 2,
    "category": "segment_reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 3000, "G": 17},
        "ragged": {"N": 4099, "G": 33},
        "large": {"N": 33_554_432, "G": 4096},
    },
    "baseline_notes": "40 programs (the 910B's vector cores) take groups g = pid, pid + 40, ...; each walks "
                      "its slice in contiguous blocks of 2048 rows (the slice end as the load bound), sums "
                      "into a vector accumulator, reduces once and stores sum and sum / len. The key column "
                      "is not read. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """values float32 [N] (sensor readings), keys int32 [N] sorted, offsets int32 [G + 1]; group sizes
    vary (cut points drawn uniformly, so lengths are roughly exponential around N / G)."""
    s = META["sizes"][size]
    n, groups = s["N"], s["G"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    cuts = torch.randperm(n - 1, generator=g)[: groups - 1] + 1
    offsets = torch.cat([torch.zeros(1, dtype=torch.int64), cuts.sort().values,
                         torch.full((1,), n, dtype=torch.int64)])
    lengths = offsets[1:] - offsets[:-1]
    keys = torch.repeat_interleave(torch.arange(groups), lengths)
    level = 20.0 + 5.0 * torch.randn(groups, generator=g)
    values = level[keys] + torch.randn(n, generator=g)
    return values.to(dt).to(device), keys.to(torch.int32).to(device), offsets.to(torch.int32).to(device)


def reference(values: torch.Tensor, keys: torch.Tensor, offsets: torch.Tensor) -> tuple:
    groups = offsets.numel() - 1
    sums = torch.zeros(groups, dtype=torch.float64, device=values.device)
    sums.index_add_(0, keys.long(), values.double())
    lengths = (offsets[1:] - offsets[:-1]).double()
    return sums.to(values.dtype), (sums / lengths).to(values.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["N"] + 12 * s["G"], "flops": s["N"]}
