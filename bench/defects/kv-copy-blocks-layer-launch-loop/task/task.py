"""KV-cache swap-out gather (vLLM swap_blocks / KV offload): the blocks listed in src_blocks are copied out of every layer's K and V cache into a contiguous staging buffer, out[l, kv, p] = kv_caches[l, kv, src_blocks[p]]."""
import torch

META = {
    "name": "kv_swap_out",
    "level": 2,
    "category": "gather",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 0, "rtol": 0}, "float16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"LAYERS": 3, "BLOCKS": 12, "BLOCK_ELEMS": 256, "P": 5},
        "ragged": {"LAYERS": 5, "BLOCKS": 100, "BLOCK_ELEMS": 3000, "P": 37},
        "large": {"LAYERS": 32, "BLOCKS": 512, "BLOCK_ELEMS": 16384, "P": 128},
    },
    "baseline_notes": "One launch, 3-D grid (block pair, 4096-element chunk, layer * 2): each program copies one chunk "
                      "of one block of one cache; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """kv_caches [LAYERS, 2, BLOCKS, BLOCK_ELEMS] (one allocation; a block = 16 tokens x 8 kv heads x 128 at large),
    src_blocks [P] int64 distinct block ids being evicted."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    caches = torch.randn(s["LAYERS"], 2, s["BLOCKS"], s["BLOCK_ELEMS"], generator=g)
    src = torch.randperm(s["BLOCKS"], generator=g)[: s["P"]]
    return caches.to(getattr(torch, dtype or META["dtypes"][0])).to(device), src.to(device)


def reference(kv_caches: torch.Tensor, src_blocks: torch.Tensor) -> torch.Tensor:
    return kv_caches[:, :, src_blocks].contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["LAYERS"] * 2 * s["P"] * s["BLOCK_ELEMS"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 8 * s["P"], "flops": 0}
