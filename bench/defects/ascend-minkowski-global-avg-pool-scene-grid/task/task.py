"""Global average pooling of a batched sparse tensor (MinkowskiEngine MinkowskiGlobalAvgPooling).

A batched sparse tensor stores the voxels of B scenes one scene after another (the rows that
ME.utils.batched_coordinates / sparse_collate give batch index b are contiguous); row_splits [B + 1]
holds where each scene's rows start. Global average pooling reduces every scene to one feature row:
    out[b, :] = mean(feats[row_splits[b] : row_splits[b + 1], :], dim=0)      (0 for an empty scene)
It is the squeeze of MinkowskiEngine's squeeze-and-excitation block (MinkowskiSE: global pool -> MLP ->
sigmoid -> MinkowskiBroadcastMultiplication) and the head of its classification networks. fp32.
"""
import torch

META = {
    "name": "sparse_global_avg_pool",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"scene_voxels": [300, 173], "C": 96},
        "ragged": {"scene_voxels": [517, 0, 1203], "C": 40},
        "large": {"scene_voxels": [171_893, 140_217], "C": 96},
    },
    "baseline_notes": "Grid (B, cdiv(40, B)): the 40 vector cores of an Atlas A2 split every scene's rows, each "
                      "program adds every split-th [64, C] row tile into a [64, BC] accumulator, reduces it "
                      "once, scales by 1 / count and adds its share into out with one vector atomic_add; no "
                      "autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """feats [N, C] (N = sum of scene voxels, scenes stacked), row_splits [B + 1] int32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    counts = torch.tensor(s["scene_voxels"], dtype=torch.int64)
    row_splits = torch.zeros(len(counts) + 1, dtype=torch.int64)
    row_splits[1:] = torch.cumsum(counts, 0)
    n = int(row_splits[-1])
    # post-ReLU decoder features: non-negative, a per-scene scale
    scale = 0.5 + torch.rand(len(counts), 1, generator=g)
    feats = torch.relu(torch.randn(n, s["C"], generator=g)) * scale.repeat_interleave(counts, dim=0)
    return feats.to(dt).to(device), row_splits.to(torch.int32).to(device)


def reference(feats: torch.Tensor, row_splits: torch.Tensor) -> torch.Tensor:
    bounds = row_splits.tolist()
    out = torch.zeros(len(bounds) - 1, feats.shape[1], dtype=torch.float64, device=feats.device)
    for b in range(len(bounds) - 1):
        if bounds[b + 1] > bounds[b]:
            out[b] = feats[bounds[b]:bounds[b + 1]].double().mean(0)
    return out.to(feats.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = sum(s["scene_voxels"])
    return {"bytes": 4 * n * s["C"] + 4 * len(s["scene_voxels"]) * s["C"], "flops": n * s["C"]}
