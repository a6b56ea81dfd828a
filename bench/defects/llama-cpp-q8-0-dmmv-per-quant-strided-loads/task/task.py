"""llama.cpp decode mat-vec over Q8_0 weights kept in their GGUF block layout (dequantize_mul_mat_vec).

A Q8_0 weight row of K values is K/32 records `block_q8_0 { ggml_half d; int8_t qs[32]; }`, 34 bytes each,
stored back to back; w[n, 32*b + j] = d[n, b] * qs[n, b, j]. For one decode token (ne11 = 1) with fp32
activations x [K]:
    y[n] = sum_b d[n, b] * sum_j qs[n, b, j] * x[32*b + j]
The weight arrives as the raw bytes uint8 [N, (K/32)*34] (d little-endian fp16 at byte 0 of each record).
"""
import torch

META = {
    "name": "q8_0_mat_vec",
    "level": 2,
    "category": "quantized-gemv",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 16, "K": 256},
        "ragged": {"N": 37, "K": 96},
        "large": {"N": 14336, "K": 4096},
    },
    "baseline_notes": "Grid cdiv(N, 8); each program keeps 8 fp32 row sums and walks the row in steps of 16 "
                      "records, loading the quants as one [8, 16, 32] int8 tile (each record's 32 bytes "
                      "contiguous), the matching x as a [16, 32] tile and the 8x16 fp16 scales, reducing "
                      "over the 32 quants, then scaling per record. 4 warps, no autotune.",
    "deterministic": True,
}
QK = 32
RECORD = 34


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Q8_0 bytes uint8 [N, (K/32)*34] quantised from N(0, 0.02) weights, activations x [K]."""
    s = META["sizes"][size]
    n, k = s["N"], s["K"]
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(n, k // QK, QK, generator=g) * 0.02
    d = w.abs().amax(dim=-1, keepdim=True) / 127.0
    qs = torch.round(w / d).clamp(-127, 127).to(torch.int8)
    d16 = d.to(torch.float16)
    blocks = torch.cat([d16.view(torch.uint8), qs.view(torch.uint8)], dim=-1)  # [N, K/32, 34]
    x = torch.randn(k, generator=g)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return blocks.reshape(n, -1).contiguous().to(device), x.to(dt).to(device)


def reference(w_q8: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    n = w_q8.shape[0]
    blocks = w_q8.reshape(n, -1, RECORD)
    d = blocks[..., :2].contiguous().view(torch.float16).double()          # [N, K/32, 1]
    qs = blocks[..., 2:].contiguous().view(torch.int8).double()           # [N, K/32, 32]
    w = (d * qs).reshape(n, -1)
    return (w @ x.double()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["N"] * s["K"] // QK * RECORD + 4 * s["K"] + 4 * s["N"], "flops": 2 * s["N"] * s["K"]}
