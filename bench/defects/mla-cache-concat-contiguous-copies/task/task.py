"""MLA latent-cache write (vLLM concat_and_cache_mla): for each token, kv_c (kv_lora_rank) and k_pe (rope dim) are concatenated into its slot of a paged cache [num_blocks, block_size, kv_lora_rank + rope_dim]; a fresh prefill cache whose slots are all written."""
import torch

META = {
    "name": "concat_and_cache_mla",
    "level": 2,
    "category": "layout",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 0, "rtol": 0}, "float16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"T": 48, "BS": 16, "R": 64, "P": 16},
        "ragged": {"T": 3008, "BS": 16, "R": 512, "P": 64},
        "large": {"T": 65536, "BS": 64, "R": 512, "P": 64},
    },
    "baseline_notes": "One program per token: the kv_c and k_pe rows are read in place through their row stride "
                      "(views of the latent buffer) and stored to the token's slot; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """latent [T, R + P] written by the preceding norm / rope kernel; kv_c = latent[:, :R] and k_pe = latent[:, R:]
    (row stride R + P); slot_mapping [T] int64 from a shuffled block table; num_blocks."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    latent = torch.randn(s["T"], s["R"] + s["P"], generator=g).to(getattr(torch, dtype or META["dtypes"][0]))
    nb = s["T"] // s["BS"]
    blocks = torch.randperm(nb, generator=g)
    tok = torch.arange(s["T"])
    slot = blocks[tok // s["BS"]] * s["BS"] + tok % s["BS"]
    latent = latent.to(device)
    return latent[:, :s["R"]], latent[:, s["R"]:], slot.to(device), nb


def reference(kv_c: torch.Tensor, k_pe: torch.Tensor, slot_mapping: torch.Tensor, num_blocks: int) -> torch.Tensor:
    T = kv_c.shape[0]
    width = kv_c.shape[1] + k_pe.shape[1]
    cache = torch.empty(num_blocks * (T // num_blocks), width, dtype=kv_c.dtype, device=kv_c.device)
    cache[slot_mapping] = torch.cat([kv_c, k_pe], dim=-1)
    return cache.view(num_blocks, T // num_blocks, width)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    it = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 2 * s["T"] * (s["R"] + s["P"]) * it + 8 * s["T"], "flops": 0}
