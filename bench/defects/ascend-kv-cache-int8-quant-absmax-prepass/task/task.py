"""KV-cache write with dynamic per-(token, kv head) int8 quantization (the C8 KV cache of vLLM-Ascend /
MindIE, reshape_and_cache with a quantizing store): each token's K and V head vectors are scaled by
absmax / 127, rounded half away from zero, and scattered to the slot given by slot_mapping in a paged
cache [num_blocks, block_size, Hkv, D]; the fp32 scales go to [num_blocks, block_size, Hkv].
Here the prefill fills every slot of the cache (slot_mapping is a permutation of the slots)."""
import torch

META = {
    "name": "kv_cache_int8_quant_write",
    "level": 2,
    "category": "quantization",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1.0, "rtol": 1e-5}},
    "sizes": {
        "small": {"T": 96, "Hkv": 2, "D": 32, "BS": 16},
        "ragged": {"T": 200, "Hkv": 4, "D": 64, "BS": 8},
        "large": {"T": 16384, "Hkv": 8, "D": 128, "BS": 128},
    },
    "baseline_notes": "One kernel on a grid of 48 vector cores: each program takes 64 (token, head) rows of K and "
                      "of V at a time, reduces the absmax in UB, writes the int8 rows and the scale to the slot.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """key, value [T, Hkv, D] (a few outlier channels, as real K has), slot_mapping int32 [T] (whole blocks
    handed out in shuffled order) and the block size."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    T, H, D, BS = s["T"], s["Hkv"], s["D"], s["BS"]
    key = torch.randn(T, H, D, generator=g)
    key[..., torch.randint(0, D, (2,), generator=g)] *= 8.0
    value = torch.randn(T, H, D, generator=g)
    n_blocks = T // BS
    blocks = torch.randperm(n_blocks, generator=g)
    slots = (blocks[:, None] * BS + torch.arange(BS)[None, :]).flatten().to(torch.int32)
    return key.to(dt).to(device), value.to(dt).to(device), slots.to(device), BS


def _quant(x: torch.Tensor) -> tuple:
    xf = x.float()
    scale = torch.clamp(xf.abs().amax(dim=-1), min=1e-8) / 127.0
    y = xf / scale[..., None]
    q = torch.sign(y) * torch.floor(y.abs() + 0.5)
    return torch.clamp(q, -127, 127).to(torch.int8), scale


def reference(key, value, slot_mapping, block_size):
    T, H, D = key.shape
    n_blocks = T // block_size
    slots = slot_mapping.long()
    outs = []
    for x in (key, value):
        q, sc = _quant(x)
        cache = torch.empty(n_blocks * block_size, H, D, dtype=torch.int8, device=key.device)
        scales = torch.empty(n_blocks * block_size, H, dtype=torch.float32, device=key.device)
        cache[slots] = q
        scales[slots] = sc
        outs.append((cache.view(n_blocks, block_size, H, D), scales.view(n_blocks, block_size, H)))
    return outs[0][0], outs[1][0], outs[0][1], outs[1][1]


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["Hkv"] * s["D"]
    return {"bytes": 2 * (2 * n + n + 4 * s["T"] * s["Hkv"]) + 4 * s["T"], "flops": 2 * 4 * n}
