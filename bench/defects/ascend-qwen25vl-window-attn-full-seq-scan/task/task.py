"""Windowed self-attention of the Qwen2.5-VL vision encoder: the patch tokens of an image, reordered
window by window (4 x 4 merged units = up to 8 x 8 patches per window), attend only inside their window.
q, k, v [N, heads, head_dim] with cu_seqlens [num_windows + 1] (int32) marking the windows, as passed to
flash_attn_varlen_func; softmax(q k^T / sqrt(d)) v per window, output [N, heads, head_dim] in q's dtype."""
import torch

META = {
    "name": "qwen25vl_window_attention",
    "level": 2,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"grid_h": 12, "grid_w": 20, "heads": 2, "head_dim": 80},
        "ragged": {"grid_h": 10, "grid_w": 18, "heads": 3, "head_dim": 80},
        "large": {"grid_h": 100, "grid_w": 136, "heads": 16, "head_dim": 80},
    },
    "baseline_notes": "Grid = 20 AI cores looping over (window, 64-query block, head) tasks; each task runs an "
                      "online-softmax loop over its own window's keys only, [cu[w], cu[w+1]), in 128-key blocks, "
                      "two tl.dot per block with bf16 operands and fp32 accumulators.",
    "deterministic": True,
}

MERGE = 2          # spatial_merge_size
WINDOW_UNITS = 4   # window_size 112 / patch 14 / merge 2


def window_lengths(grid_h: int, grid_w: int) -> list[int]:
    """Token count of each attention window, in the order Qwen2.5-VL's get_window_index lays them out."""
    mh, mw = grid_h // MERGE, grid_w // MERGE
    rows = [min(WINDOW_UNITS, mh - r) for r in range(0, mh, WINDOW_UNITS)]
    cols = [min(WINDOW_UNITS, mw - c) for c in range(0, mw, WINDOW_UNITS)]
    return [r * c * MERGE * MERGE for r in rows for c in cols]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v [N, heads, head_dim], cu_seqlens int32 [windows + 1], max_seqlen (an int, as the model passes it)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lens = window_lengths(s["grid_h"], s["grid_w"])
    n = sum(lens)
    shape = (n, s["heads"], s["head_dim"])
    q = torch.randn(shape, generator=g)
    k = torch.randn(shape, generator=g)
    v = torch.randn(shape, generator=g)
    cu = torch.tensor([0] + lens, dtype=torch.int64).cumsum(0).to(torch.int32)
    return (q.to(dt).to(device), k.to(dt).to(device), v.to(dt).to(device), cu.to(device), max(lens))


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, cu_seqlens: torch.Tensor,
              max_seqlen: int) -> torch.Tensor:
    out = torch.empty_like(q)
    scale = q.shape[-1] ** -0.5
    bounds = cu_seqlens.tolist()
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        qs, ks, vs = (t[lo:hi].float().transpose(0, 1) for t in (q, k, v))
        p = torch.softmax((qs @ ks.transpose(1, 2)) * scale, dim=-1)
        out[lo:hi] = (p @ vs).transpose(0, 1).to(q.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    lens = window_lengths(s["grid_h"], s["grid_w"])
    n, h, d = sum(lens), s["heads"], s["head_dim"]
    return {"bytes": 4 * 2 * n * h * d + 4 * (len(lens) + 1),
            "flops": 4 * h * d * sum(x * x for x in lens)}
