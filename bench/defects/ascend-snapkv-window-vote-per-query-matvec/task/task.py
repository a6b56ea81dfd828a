"""SnapKV observation-window vote (FasterDecoding/SnapKV `SnapKVCluster.update_kv`), GQA form.

At the end of a long prefill the last W queries of every head (the observation window) attend to
all L keys of their KV head with the causal mask; the softmax probabilities that land on the
prefix keys (positions < L - W) are summed over the window queries and over the query heads that
share the KV head. The result, one vote per prefix key and KV head, is what SnapKV pools and
top-k selects to decide which KV entries survive the compression.
"""
import math

import torch

META = {
    "name": "snapkv_window_vote",
    "level": 2,
    "category": "attention",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 1e-4, "rtol": 1e-3}, "float16": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"HQ": 4, "HKV": 2, "W": 16, "L": 112, "D": 32},
        "ragged": {"HQ": 3, "HKV": 1, "W": 16, "L": 150, "D": 64},
        "large": {"HQ": 40, "HKV": 8, "W": 32, "L": 32768, "D": 128},
    },
    "baseline_notes": "Two launches. _window_lse: one program per query head, the head's W window queries as a "
                      "[W, D] tile, tl.dot against [64, D] key tiles over all L keys with the causal mask, online "
                      "max/sum per query, stores the log-sum-exp. _prefix_vote: KV heads x 40 // KV heads programs, "
                      "each a contiguous range of 64-key prefix tiles; per tile tl.dot(keys, window queries^T) for each "
                      "query head of the group, exp(s - lse), row sum, one store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q_win [HQ, W, D] (the last W queries of each head, after RoPE), k [HKV, L, D] (all keys)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q_win = torch.randn(s["HQ"], s["W"], s["D"], generator=g) * 1.5
    k = torch.randn(s["HKV"], s["L"], s["D"], generator=g)
    # a few heavy-hitter keys per head, as in real attention maps
    hot = torch.randint(0, s["L"] - s["W"], (s["HKV"], 8), generator=g)
    k[torch.arange(s["HKV"])[:, None], hot] += 0.5 * q_win.view(s["HKV"], -1, s["D"]).mean(1)[:, None, :]
    return q_win.to(dt).to(device), k.to(dt).to(device)


def reference(q_win: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    hq, w, d = q_win.shape
    hkv, length, _ = k.shape
    group = hq // hkv
    kf = k.float().repeat_interleave(group, dim=0)
    s = torch.matmul(q_win.float(), kf.transpose(1, 2)) * (1.0 / math.sqrt(d))
    qpos = torch.arange(length - w, length, device=k.device)
    kpos = torch.arange(length, device=k.device)
    s = s.masked_fill(kpos[None, None, :] > qpos[None, :, None], float("-inf"))
    p = torch.softmax(s, dim=-1)[:, :, : length - w]
    return p.sum(1).view(hkv, group, length - w).sum(1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_prefix = s["L"] - s["W"]
    return {"bytes": 2 * s["HQ"] * s["W"] * s["D"] + 2 * s["HKV"] * s["L"] * s["D"] + 4 * s["HKV"] * n_prefix,
            "flops": 2 * 2 * s["HQ"] * s["W"] * s["L"] * s["D"]}
