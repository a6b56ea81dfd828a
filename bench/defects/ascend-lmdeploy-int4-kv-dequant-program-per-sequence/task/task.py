"""Flatten and dequantise an int4 paged KV cache (LMDeploy flatten_kv_cache, quant_policy=4) for prefill attention.

cache [NB, BS, H, D/2] uint8 holds asymmetric per-token, per-head int4 codes, two per byte: channel i in
the low nibble and channel i + D/2 in the high nibble (as LMDeploy's fill_kv_cache packs them).
scale, zero [NB, BS, H] fp16 (the Ascend port keeps the two planes of scales_zeros apart).
block_table [B, S / BS] int32 maps each sequence's logical blocks to cache blocks; every sequence
has S cached tokens. Output [B * S, H, D] fp16 ('shd' layout):
x = q * scale - scale * zero, computed in fp32 and rounded to fp16.
"""
import torch

META = {
    "name": "int4_kv_flatten_dequant",
    "level": 2,
    "category": "quantization",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 2, "S": 32, "BS": 16, "H": 2, "D": 64, "NB": 8},
        "ragged": {"B": 3, "S": 48, "BS": 16, "H": 3, "D": 80, "NB": 13},
        "large": {"B": 8, "S": 4096, "BS": 128, "H": 8, "D": 128, "NB": 512},
    },
    "baseline_notes": "Grid of min(40, chunks) programs (vector cores), each looping over (sequence, chunk of "
                      "tokens) items with a stride of the grid; a chunk is up to 128 (token, head) rows of one "
                      "cache block: one [rows, D/2] uint8 load, nibble split, fp32 dequant, two [rows, D/2] fp16 "
                      "stores (low and high halves of the head); no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Packed cache, scale and zero planes, and a block table of distinct cache blocks."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    NB, BS, H, D = s["NB"], s["BS"], s["H"], s["D"]
    cache = torch.randint(0, 256, (NB, BS, H, D // 2), generator=g, dtype=torch.int32).to(torch.uint8)
    scale = (torch.rand(NB, BS, H, generator=g) * 0.2 + 0.01).to(torch.float16)
    zero = (torch.rand(NB, BS, H, generator=g) * 15.0).to(torch.float16)
    table = torch.randperm(NB, generator=g)[: s["B"] * (s["S"] // BS)]
    table = table.view(s["B"], s["S"] // BS).to(torch.int32)
    return cache.to(device), scale.to(device), zero.to(device), table.to(device)


def reference(cache, scale, zero, block_table):
    B, nblk = block_table.shape
    _, BS, H, D2 = cache.shape
    idx = block_table.long().reshape(-1)
    q = cache[idx].reshape(B * nblk * BS, H, D2).to(torch.int32)
    vals = torch.cat([q & 15, q >> 4], dim=-1).float()
    s = scale[idx].reshape(B * nblk * BS, H, 1).float()
    z = zero[idx].reshape(B * nblk * BS, H, 1).float()
    return (vals * s - s * z).to(torch.float16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    rows = s["B"] * s["S"] * s["H"]
    return {"bytes": rows * (s["D"] // 2 + 4 + 2 * s["D"]) + 4 * s["B"] * (s["S"] // s["BS"]),
            "flops": 3 * rows * s["D"]}
