"""StreamingLLM attention-sink KV-cache compaction (mit-han-lab/streaming-llm `StartRecentKVCache`).

Each request's cache keeps its first `sink` tokens (the attention sinks) and its last `window`
tokens (the recent window); everything between is evicted. Given one layer's K and V caches of a
batch ([B, HKV, LMAX, D], HF layout, valid up to seq_lens[b]), build the compacted caches
[B, HKV, sink + window, D]: rows 0..sink-1 are cache[..., 0:sink, :], rows sink.. are
cache[..., L - window:L, :]. StreamingLLM's defaults: start_size = 4, recent_size = 2000.
"""
import torch

META = {
    "name": "sink_window_kv_compact",
    "level": 2,
    "category": "gather",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}, "float16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 2, "HKV": 2, "LMAX": 150, "D": 32, "SINK": 4, "WINDOW": 60},
        "ragged": {"B": 3, "HKV": 1, "LMAX": 333, "D": 64, "SINK": 4, "WINDOW": 100},
        "large": {"B": 10, "HKV": 8, "LMAX": 8192, "D": 128, "SINK": 4, "WINDOW": 2000},
    },
    "baseline_notes": "One launch, 40 programs striding over the B*HKV (request, head) pairs; per pair the sink rows "
                      "as one [next_pow2(sink), D] tile, then the window in [64, D] tiles from the contiguous source "
                      "range L - window.., K and V together; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """k_cache, v_cache [B, HKV, LMAX, D]; seq_lens [B] int32 with sink + window <= seq_lens[b] <= LMAX; sink; window."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["HKV"], s["LMAX"], s["D"])
    k_cache = torch.randn(shape, generator=g, dtype=torch.float32).to(dt)
    v_cache = torch.randn(shape, generator=g, dtype=torch.float32).to(dt)
    keep = s["SINK"] + s["WINDOW"]
    seq_lens = torch.randint(keep, s["LMAX"] + 1, (s["B"],), generator=g)
    seq_lens[0] = s["LMAX"]
    seq_lens[-1] = keep
    return k_cache.to(device), v_cache.to(device), seq_lens.to(torch.int32).to(device), s["SINK"], s["WINDOW"]


def reference(k_cache: torch.Tensor, v_cache: torch.Tensor, seq_lens: torch.Tensor, sink: int, window: int) -> tuple:
    outs = []
    for cache in (k_cache, v_cache):
        rows = []
        for b, length in enumerate(seq_lens.tolist()):
            rows.append(torch.cat([cache[b, :, :sink], cache[b, :, length - window:length]], dim=1))
        outs.append(torch.stack(rows))
    return tuple(outs)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    moved = 2 * s["B"] * s["HKV"] * (s["SINK"] + s["WINDOW"]) * s["D"] * 2
    return {"bytes": 2 * moved + 4 * s["B"], "flops": 0}
