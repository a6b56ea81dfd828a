"""Beam-search KV-cache reorder (Hugging Face generate: Cache.reorder_cache(beam_idx), i.e. index_select(0,
beam_idx) on every layer's key and value cache): after each beam step, row r of the new cache is row beam_idx[r] of
the old one. key / value [batch * num_beams, kv_heads, cache_len, head_dim]; returns the reordered (key, value)."""
import torch

META = {
    "name": "beam_kv_cache_reorder",
    "level": 1,
    "category": "memory",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"batch": 2, "beams": 2, "H": 2, "S": 70, "D": 32},
        "ragged": {"batch": 1, "beams": 5, "H": 3, "S": 53, "D": 40},
        "large": {"batch": 8, "beams": 4, "H": 8, "S": 4096, "D": 128},
    },
    "baseline_notes": "One launch for keys and values, grid (cache row, kv head, 32-position block): each program "
                      "reads its source row index once and copies one [32, head_dim] tile of the key and of the value.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """key, value [batch * beams, H, S, D] and beam_idx [batch * beams] int64 (each batch's beams pick source
    beams of the same batch entry, with repeats, as the beam scorer's next_beam_indices)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    R = s["batch"] * s["beams"]
    shape = (R, s["H"], s["S"], s["D"])
    key = torch.randn(shape, generator=g).to(dt)
    value = torch.randn(shape, generator=g).to(dt)
    src = torch.randint(0, s["beams"], (s["batch"], s["beams"]), generator=g)
    beam_idx = (src + torch.arange(s["batch"])[:, None] * s["beams"]).reshape(-1)
    return key.to(device), value.to(device), beam_idx.to(device)


def reference(key, value, beam_idx):
    return key.index_select(0, beam_idx), value.index_select(0, beam_idx)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["batch"] * s["beams"] * s["H"] * s["S"] * s["D"]
    return {"bytes": 2 * 2 * 2 * n + 8 * s["batch"] * s["beams"], "flops": 0}
