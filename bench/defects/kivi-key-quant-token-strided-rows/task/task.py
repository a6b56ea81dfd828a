"""KIVI key-cache quantization: per-channel asymmetric 4-bit quantization of the key cache in groups
of 32 tokens, eight codes packed into each int32 along the token axis (KIVI's quantize-and-pack of
key_states, whose rows are the (batch, head, channel) token sequences)."""
import torch

META = {
    "name": "kivi_key_quant_pack",
    "level": 2,
    "category": "quantization",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 1, "H": 2, "T": 128, "D": 32},
        "ragged": {"B": 1, "H": 3, "T": 96, "D": 64},
        "large": {"B": 4, "H": 32, "T": 4096, "D": 128},
    },
    "baseline_notes": "2-D grid (batch*head, block of 64 tokens): each program loads a [64, D] key tile (rows "
                      "contiguous along the head dim), takes min / max per channel over each 32-token group, "
                      "quantizes with IEEE division and packs eight 4-bit codes per int32 along the tokens; "
                      "4 warps.",
    "deterministic": True,
}

GROUP = 32
BITS = 4


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """key_states [B, H, T, D] as produced by k_proj + RoPE: unit-scale values with a few outlier
    channels per head (the reason KIVI quantizes keys per channel)."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator(device=device).manual_seed(seed)
    k = torch.randn(s["B"], s["H"], s["T"], s["D"], generator=g, device=device)
    chan = 1.0 + 7.0 * (torch.rand(s["H"], 1, s["D"], generator=g, device=device) > 0.9).float()
    bias = torch.randn(s["H"], 1, s["D"], generator=g, device=device)
    return ((k * chan + bias).to(dt),)


def reference(key_states: torch.Tensor) -> tuple:
    """(code int32 [B, H, D, T // 8], scale [B, H, D, T // 32], mn [B, H, D, T // 32]) in the key's dtype."""
    B, H, T, D = key_states.shape
    x = key_states.transpose(2, 3).float().reshape(B, H, D, T // GROUP, GROUP)
    mn = x.amin(dim=-1, keepdim=True)
    mx = x.amax(dim=-1, keepdim=True)
    scale = (mx - mn) / float(2 ** BITS - 1)
    q = torch.floor((x - mn) / scale + 0.5).clamp(0, 2 ** BITS - 1).to(torch.int64)
    q = q.reshape(B, H, D, T // 8, 8)
    packed = (q << (torch.arange(8, device=q.device) * BITS)).sum(dim=-1)
    packed = torch.where(packed >= 2 ** 31, packed - 2 ** 32, packed).to(torch.int32)
    return packed, scale.squeeze(-1).to(key_states.dtype), mn.squeeze(-1).to(key_states.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["H"] * s["T"] * s["D"]
    return {"bytes": 2 * n + n // 2 + 2 * 2 * (n // GROUP), "flops": 6 * n}
