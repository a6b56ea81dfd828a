"""Per-cluster parameters of pixel clusters (CMS Patatrack getHits, the cluster-parameter pass of the
pixel CPE): for every cluster the total charge and the bounding box of its pixels,

    charge[c]  = sum adc[d]            over the digis d of cluster c
    min_row[c] = min row[d],  max_row[c] = max row[d]
    min_col[c] = min col[d],  max_col[c] = max col[d]

Digis come grouped by cluster, as the clusterizer emits them: clus[d] (int32, non-decreasing) and the
offsets clus_start [C+1] (digis of cluster c are clus_start[c] .. clus_start[c+1]-1). Pixel
coordinates are int16 (Phase-2 inner-tracker module: 1354 rows x 434 columns), adc is the calibrated
charge in electrons (int32). Returns (charge, min_row, max_row, min_col, max_col), each int32 [C].
"""
import torch

META = {
    "name": "pixel_cluster_params",
    "level": 1,
    "category": "tracking",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"C": 60},
        "ragged": {"C": 97},
        "large": {"C": 250000},
    },
    "baseline_notes": "One program per 64 clusters: the cluster offsets give each cluster's digi range; the "
                      "program loads [64, 8] tiles of digis (cluster x pixel-in-cluster, masked by the cluster "
                      "size) until its longest cluster is covered, reduces charge, min and max along the "
                      "pixel axis in registers and stores the five results once. No atomics, 4 warps.",
    "deterministic": True,
}
N_ROWS, N_COLS = 1354, 434
MAX_SIZE = 48


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """row int16 [N], col int16 [N], adc int32 [N], clus int32 [N], clus_start int32 [C+1]."""
    n_clus = META["sizes"][size]["C"]
    g = torch.Generator().manual_seed(seed)
    # cluster sizes: mostly 1-6 pixels, a tail of long clusters from shallow tracks (mean ~4.4)
    sizes = (1 + torch.floor(-3.4 * torch.log(torch.rand(n_clus, generator=g)))).clamp(max=MAX_SIZE).long()
    start = torch.zeros(n_clus + 1, dtype=torch.long)
    start[1:] = torch.cumsum(sizes, 0)
    n = int(start[-1])
    clus = torch.repeat_interleave(torch.arange(n_clus), sizes)
    k = torch.arange(n) - start[clus]                       # pixel index inside its cluster
    width = 1 + (torch.rand(n_clus, generator=g) < 0.4).long()  # clusters one or two rows wide
    r0 = torch.randint(0, N_ROWS - 2, (n_clus,), generator=g)
    c0 = torch.randint(0, N_COLS - MAX_SIZE, (n_clus,), generator=g)
    row = r0[clus] + k % width[clus]
    col = c0[clus] + k // width[clus]
    adc = (1500 + torch.floor(-6000.0 * torch.log(torch.rand(n, generator=g)))).clamp(max=65535).long()
    return (row.to(torch.int16).to(device), col.to(torch.int16).to(device), adc.to(torch.int32).to(device),
            clus.to(torch.int32).to(device), start.to(torch.int32).to(device))


def reference(row, col, adc, clus, clus_start):
    n_clus = clus_start.shape[0] - 1
    idx = clus.long()
    dev = row.device
    charge = torch.zeros(n_clus, dtype=torch.int64, device=dev).index_add_(0, idx, adc.long())
    r, c = row.long(), col.long()
    big = torch.full((n_clus,), 1 << 20, dtype=torch.int64, device=dev)
    neg = torch.full((n_clus,), -1, dtype=torch.int64, device=dev)
    min_row = big.clone().scatter_reduce_(0, idx, r, reduce="amin")
    max_row = neg.clone().scatter_reduce_(0, idx, r, reduce="amax")
    min_col = big.clone().scatter_reduce_(0, idx, c, reduce="amin")
    max_col = neg.clone().scatter_reduce_(0, idx, c, reduce="amax")
    return tuple(t.to(torch.int32) for t in (charge, min_row, max_row, min_col, max_col))


def cost(size: str, dtype: str | None = None) -> dict:
    n_clus = META["sizes"][size]["C"]
    n = int(n_clus * 4.4)
    return {"bytes": 12 * n + 4 * n_clus + 20 * n_clus, "flops": 5 * n}
