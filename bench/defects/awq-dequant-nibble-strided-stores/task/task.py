"""AWQ 4-bit weight dequantization (vLLM awq_dequantize): qweight int32 [K, N/8] holds eight 4-bit
weights per word in AWQ's interleaved nibble order, qzeros int32 [K/G, N/8] the packed zero points,
scales fp16 [K/G, N]. Output W = (w - z) * s as fp16 [K, N]."""
import torch

META = {
    "name": "awq_dequantize",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"K": 256, "N": 256, "G": 128},
        "ragged": {"K": 384, "N": 168, "G": 128},
        "large": {"K": 8192, "N": 28672, "G": 128},
    },
    "baseline_notes": "2-D grid over output tiles [16, 256]: each output column reads its packed word "
                      "(col // 8) and shifts by 4 * AWQ_REVERSE_ORDER[col % 8]; contiguous fp16 stores.",
    "deterministic": True,
}

# nibble slot that holds column j of an 8-column pack (AWQ packs columns in order 0, 2, 4, 6, 1, 3, 5, 7)
AWQ_REVERSE_ORDER = (0, 4, 1, 5, 2, 6, 3, 7)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    K, N, G = s["K"], s["N"], s["G"]
    dt = getattr(torch, dtype or META["dtypes"][0])
    qweight = torch.randint(-2**31, 2**31 - 1, (K, N // 8), generator=g, dtype=torch.int64).to(torch.int32)
    qzeros = torch.randint(-2**31, 2**31 - 1, (K // G, N // 8), generator=g, dtype=torch.int64).to(torch.int32)
    scales = (torch.rand(K // G, N, generator=g) * 0.02 + 0.001).to(dt)
    return qweight.to(device), qzeros.to(device), scales.to(device), G


def _unpack(packed: torch.Tensor) -> torch.Tensor:
    shifts = torch.tensor([4 * o for o in AWQ_REVERSE_ORDER], device=packed.device, dtype=torch.int64)
    vals = (packed.long()[:, :, None] >> shifts[None, None, :]) & 0xF
    return vals.reshape(packed.shape[0], -1)


def reference(qweight, qzeros, scales, group_size: int) -> torch.Tensor:
    w = _unpack(qweight).double()
    z = _unpack(qzeros).double().repeat_interleave(group_size, dim=0)
    s = scales.double().repeat_interleave(group_size, dim=0)
    return ((w - z) * s).to(scales.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    K, N, G = s["K"], s["N"], s["G"]
    return {"bytes": K * N // 2 + (K // G) * N // 2 + (K // G) * N * 2 + K * N * 2, "flops": 2 * K * N}
