"""Multi-table sum-pooled embedding bags (torchrec EmbeddingBagCollection forward on a KeyedJaggedTensor): the
tables are stacked in one weight matrix (table t starts at row table_offsets[t]); the KJT is feature-major, bag
(t, b) owns indices[offsets[t * B + b]:offsets[t * B + b + 1]]; output KeyedTensor [B, T * D] (fp32 pooled sums)."""
import torch

# MLPerf DLRM-DCNv2 (Criteo 1TB multi-hot): per-table hash sizes (capped here) and mean pooling factors
_CARD = [39884406, 39043, 17289, 7420, 20263, 3, 7120, 1543, 63, 38532951, 2953546, 403346, 10, 2208, 11938, 155, 4,
         976, 14, 39979771, 25641295, 39664984, 585935, 12972, 108, 36]
_POOL = [3, 2, 1, 2, 6, 1, 1, 1, 1, 7, 3, 8, 1, 6, 9, 5, 1, 1, 1, 12, 100, 27, 10, 3, 1, 1]

META = {
    "name": "dlrm_multi_table_embedding_bag",
    "level": 2,
    "category": "embedding",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"B": 5, "T": 4, "D": 16, "cap": 50},
        "ragged": {"B": 7, "T": 6, "D": 24, "cap": 37},
        "large": {"B": 4096, "T": 26, "D": 128, "cap": 65536},
    },
    "baseline_notes": "One launch, grid (bag, table): each program reads its bag's [start, end) from the KJT offsets "
                      "and its table's base row, gathers 16 embedding rows at a time as a [16, D] tile and sums them "
                      "into an fp32 [D] accumulator, stored at out[b, t * D:(t + 1) * D]; one warp per bag.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """weights [sum rows, D], table_offsets [T + 1] int64, indices [nnz] int32 (row within the table), offsets
    [T * B + 1] int32, batch size B. Bag lengths vary around each table's MLPerf pooling factor (some empty)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    T, B = s["T"], s["B"]
    rows = [min(c, s["cap"]) for c in _CARD[:T]]
    table_offsets = torch.tensor([0] + rows).cumsum(0)
    weights = (torch.rand(int(table_offsets[-1]), s["D"], generator=g) - 0.5) * 0.1
    lengths, indices = [], []
    for t in range(T):
        p = _POOL[t]
        lt = torch.randint(max(0, p // 2), p + p // 2 + 1, (B,), generator=g)
        lengths.append(lt)
        indices.append(torch.randint(0, rows[t], (int(lt.sum()),), generator=g))
    offsets = torch.cat([torch.zeros(1, dtype=torch.long), torch.cat(lengths).cumsum(0)])
    return (weights.to(dt).to(device), table_offsets.to(device), torch.cat(indices).to(torch.int32).to(device),
            offsets.to(torch.int32).to(device), B)


def reference(weights, table_offsets, indices, offsets, batch_size):
    T = table_offsets.numel() - 1
    D = weights.shape[1]
    lengths = (offsets[1:] - offsets[:-1]).long()
    bag = torch.repeat_interleave(torch.arange(T * batch_size, device=weights.device), lengths)
    rows = indices.long() + table_offsets[bag // batch_size]
    pooled = torch.zeros(T * batch_size, D, dtype=torch.float64, device=weights.device)
    pooled.index_add_(0, bag, weights[rows].double())
    return pooled.view(T, batch_size, D).permute(1, 0, 2).reshape(batch_size, T * D).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nnz = s["B"] * sum(_POOL[: s["T"]])
    return {"bytes": nnz * (2 * s["D"] + 4) + 4 * (s["T"] * s["B"] + 1) + 4 * s["B"] * s["T"] * s["D"],
            "flops": nnz * s["D"]}
