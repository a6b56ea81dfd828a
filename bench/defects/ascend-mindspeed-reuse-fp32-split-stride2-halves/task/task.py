"""MindSpeed --reuse-fp32-param: split the fp32 main-parameter shard into bf16 parameters and 16-bit residuals.

MindSpeed keeps the fp32 master copy of a distributed-optimizer shard in the same memory as the bf16
model parameters (mindspeed/optimizer/distrib_optimizer.py, fp32_tensor_convert_to_fp16_tensor): after
the optimizer step it adds 32768 to each fp32 word viewed as int32 (rounding the high half to the
nearest bf16), then de-interleaves the words viewed as bf16 pairs, view(-1, 2).transpose(1, 0): the
high halves become the bf16 parameters the next forward reads, the low halves the residuals that
give back the exact fp32 value before the next step. Here both halves come back as new tensors: the
bf16 parameters and the residual bits as int16.
"""
import torch

META = {
    "name": "reuse_fp32_param_split",
    "level": 2,
    "category": "optimizer",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"n": 5000},
        "ragged": {"n": 100_003},
        "large": {"n": 210_575_488},
    },
    "baseline_notes": "40 programs (one per AIV core), each looping over 4096-word tiles of the shard: one "
                      "contiguous int32 load, + 32768, high half (>> 16) and low half (truncation) stored as "
                      "two contiguous int16 tiles; no autotune.",
    "deterministic": True,
}

# (high half, low half) words that exercise the rounding carry: low half at, just under and past 0x8000
_EDGE_WORDS = [(0x3C00, 0x8000), (0x3C00, 0x7FFF), (0x3C7F, 0xFFFF), (0xBC00, 0x8000),
               (0xBF80, 0xFFFF), (0x0000, 0x0000), (0x8000, 0x8001), (0x4049, 0x0FDB)]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """main_param [n] fp32: the rank's shard of the fp32 master weights (std 0.02 init, drifted)."""
    n = META["sizes"][size]["n"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    main = 0.02 * torch.randn(n, generator=g) + 1e-3 * torch.randn(n, generator=g)
    words = main.view(torch.int32)
    for k, (hi, lo) in enumerate(_EDGE_WORDS[: n]):
        w = (hi << 16) | lo
        words[k] = w - (1 << 32) if w >= 1 << 31 else w
    return (main.to(dt).to(device),)


def _as_int16(v: torch.Tensor) -> torch.Tensor:
    return ((v & 0xFFFF) ^ 0x8000).sub(0x8000).to(torch.int16)


def reference(main_param: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    word = main_param.contiguous().view(torch.int32).to(torch.int64) + 32768
    param = _as_int16(word >> 16).view(torch.bfloat16)
    residual = _as_int16(word)
    return param, residual


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["n"]
    return {"bytes": 8 * n, "flops": 4 * n}
