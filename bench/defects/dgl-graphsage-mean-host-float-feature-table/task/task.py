"""GraphSAGE mean aggregation over sampled neighbours (DGL SAGEConv 'mean', first layer of a sampled block).

The node-feature table of the whole graph stays on the GPU in bf16; the sampler hands over, per destination
node, the global ids of up to `fanout` sampled in-neighbours as a dense [N_dst, fanout] int32 matrix padded
with -1. The output is the mean of the sampled neighbours' feature rows (zeros for a node with none), bf16.
"""
import torch

META = {
    "name": "graphsage_sampled_mean",
    "level": 2,
    "category": "graph",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"nodes": 500, "feat": 32, "dst": 64, "fanout": 10},
        "ragged": {"nodes": 777, "feat": 100, "dst": 91, "fanout": 10},
        "large": {"nodes": 2449029, "feat": 100, "dst": 100000, "fanout": 10},
    },
    "baseline_notes": "One program per 32 destination nodes and the whole (next_power_of_2) feature row: loops over "
                      "the fanout slots, loads the neighbour ids, gathers the bf16 rows masked by id >= 0, "
                      "accumulates in fp32 with a per-row count, divides by max(count, 1) and stores bf16; 4 warps, "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """feat [nodes, feat] bf16 (the whole graph's table), nbr [dst, fanout] int32 global ids, -1 padded."""
    s = META["sizes"][size]
    n, f, d, k = s["nodes"], s["feat"], s["dst"], s["fanout"]
    g = torch.Generator().manual_seed(seed)
    feat = torch.randn(n, f, generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    nbr = torch.randint(0, n, (d, k), generator=g, dtype=torch.int32)
    # ogbn-products has mean degree ~50: most nodes fill the fanout, low-degree ones leave slots empty
    have = torch.where(torch.rand(d, generator=g) < 0.85, torch.full((d,), k),
                       torch.randint(0, k, (d,), generator=g))
    nbr[torch.arange(k)[None, :] >= have[:, None]] = -1
    return feat.to(device), nbr.to(device)


def reference(feat: torch.Tensor, nbr: torch.Tensor) -> torch.Tensor:
    valid = nbr >= 0
    rows = feat.float()[nbr.clamp(min=0).long()] * valid[..., None]
    count = valid.sum(1, keepdim=True).clamp(min=1)
    return (rows.sum(1) / count).to(feat.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, f, d, k = s["nodes"], s["feat"], s["dst"], s["fanout"]
    return {"bytes": 2 * d * k * f + 4 * d * k + 2 * d * f, "flops": d * k * f + d * f}
