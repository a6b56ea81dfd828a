"""vLLM-style paged KV-cache gather: copy each sequence's cache blocks, via its block table, into a contiguous [B, S, H, D]."""
import torch

META = {
    "name": "paged_kv_gather",
    "level": 2,
    "category": "gather",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 0.0},
                  "bfloat16": {"atol": 0.0, "rtol": 0.0},
                  "float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"blocks": 16, "block_size": 16, "H": 2, "D": 64, "B": 2, "max_blocks": 4},
        "ragged": {"blocks": 300, "block_size": 16, "H": 8, "D": 96, "B": 3, "max_blocks": 63},
        "large": {"blocks": 8192, "block_size": 16, "H": 8, "D": 128, "B": 16,
                  "max_blocks": 256},
    },
    "baseline_notes": "One program per (sequence, token position): reads the block-table entry, "
                      "then copies that token's H*D values as one next_power_of_2(H*D) block; no "
                      "autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """The paged cache [blocks, block_size, H, D] and an int32 block table [B, max_blocks] of distinct blocks."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    cache = torch.randn(s["blocks"], s["block_size"], s["H"], s["D"], generator=g)
    table = torch.randperm(s["blocks"], generator=g)[: s["B"] * s["max_blocks"]]
    table = table.view(s["B"], s["max_blocks"]).to(torch.int32)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return cache.to(device=device, dtype=dt), table.to(device)


def reference(cache: torch.Tensor, block_table: torch.Tensor) -> torch.Tensor:
    B = block_table.shape[0]
    _, _, H, D = cache.shape
    return cache[block_table.long()].reshape(B, -1, H, D)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    tokens = s["B"] * s["max_blocks"] * s["block_size"]
    return {"bytes": 2 * tokens * s["H"] * s["D"] * item + 4 * s["B"] * s["max_blocks"],
            "flops": 0}
