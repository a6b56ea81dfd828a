"""Oblivious-tree ensemble scoring as in CatBoost's model evaluator (quantized features, symmetric trees).

Every tree of depth D tests one (feature, border) pair per level; the leaf index of a row is
sum_d [bins[f_d, row] > border_d] << d, and the raw prediction is the sum over trees of
leaf_values[t, leaf]. Features arrive quantized (uint8 bin ids) and feature-major, as the GPU
evaluator stores them.
"""
import torch

META = {
    "name": "catboost_oblivious_predict",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 300, "F": 8, "T": 10, "D": 4},
        "ragged": {"N": 1001, "F": 13, "T": 23, "D": 6},
        "large": {"N": 1048576, "F": 28, "T": 1000, "D": 6},
    },
    "baseline_notes": "One program per block of 1024 rows walks every tree in a runtime loop: per level a "
                      "scalar load of the split feature and border, a coalesced uint8 load of that feature's "
                      "bins for the block, compare and shift into the leaf index; then one leaf-value gather "
                      "per tree into an fp32 register accumulator; one store. 4 warps, no autotune.",
    "deterministic": True,
}

BORDERS = 128  # CatBoost's default border_count on GPU


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """bins [F, N] uint8, split_feature [T, D] int32, split_border [T, D] int32, leaf_values [T, 2**D]."""
    s = META["sizes"][size]
    N, F, T, D = s["N"], s["F"], s["T"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    bins = torch.randint(0, BORDERS + 1, (F, N), generator=g, dtype=torch.int64).to(torch.uint8)
    split_feature = torch.randint(0, F, (T, D), generator=g).to(torch.int32)
    split_border = torch.randint(0, BORDERS, (T, D), generator=g).to(torch.int32)
    leaf_values = torch.randn(T, 2 ** D, generator=g) * 0.03
    return (bins.to(device), split_feature.to(device), split_border.to(device),
            leaf_values.to(dt).to(device))


def reference(bins, split_feature, split_border, leaf_values) -> torch.Tensor:
    T, D = split_feature.shape
    pred = torch.zeros(bins.shape[1], dtype=torch.float64, device=bins.device)
    for t0 in range(0, T, 16):
        f = split_feature[t0:t0 + 16].long()
        above = bins[f] > split_border[t0:t0 + 16, :, None]
        leaf = torch.zeros(above.shape[0], bins.shape[1], dtype=torch.int64, device=bins.device)
        for d in range(D):
            leaf |= above[:, d].long() << d
        pred += torch.gather(leaf_values[t0:t0 + 16].double(), 1, leaf).sum(0)
    return pred.to(leaf_values.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N, F, T, D = s["N"], s["F"], s["T"], s["D"]
    return {"bytes": N * F + 4 * N + T * (8 * D + 4 * 2 ** D), "flops": N * T * (2 * D + 1)}
