"""gpt-fast int8 weight-only linear (quantize.py WeightOnlyInt8Linear) for a few decode tokens.

The weight is stored as int8 [out, in] with one bf16 scale per output channel; gpt-fast computes
    y = F.linear(x, weight.to(x.dtype)) * scales
i.e. y[m, n] = scales[n] * sum_k x[m, k] * w[n, k], with bf16 activations and output. M is the number of
tokens in flight: the speculative-decoding verify step runs the draft's speculate_k tokens plus one.
"""
import torch

META = {
    "name": "int8_weight_only_linear",
    "level": 2,
    "category": "quantized-gemm",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 3, "N": 48, "K": 256},
        "ragged": {"M": 5, "N": 70, "K": 200},
        "large": {"M": 6, "N": 14336, "K": 4096},
    },
    "baseline_notes": "One launch, grid cdiv(N, 32): each program keeps a [16, 32] fp32 accumulator (the M "
                      "tokens padded to 16 rows by the mask) and walks K in steps of 128, loading the x tile "
                      "and a contiguous [32, 128] int8 weight tile, converting the weights to bf16 in registers "
                      "and accumulating with tl.dot; the per-channel scale is applied in the epilogue. "
                      "4 warps, 4 stages, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, K] (bf16), weight int8 [N, K] with per-row absmax scales bf16 [N] (gpt-fast's quantizer)."""
    s = META["sizes"][size]
    m, n, k = s["M"], s["N"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    w = torch.randn(n, k, generator=g) * 0.02
    scales = (w.abs().amax(dim=1) / 127.0).to(dt)
    w_int8 = torch.round(w / scales.float()[:, None]).clamp(-128, 127).to(torch.int8)
    x = torch.randn(m, k, generator=g)
    return x.to(dt).to(device), w_int8.to(device), scales.to(device)


def reference(x: torch.Tensor, w_int8: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    y = (x.float() @ w_int8.float().t()) * scales.float()[None, :]
    return y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    m, n, k = s["M"], s["N"], s["K"]
    return {"bytes": n * k + 2 * (m * k + n + m * n), "flops": 2 * m * n * k}
