"""vLLM awq_dequantize_triton: AWQ 4-bit weights (8 per int32, AWQ nibble order) to fp16, w = (q - z) * s per 128-row group."""
import torch

META = {
    "name": "awq_dequantize",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"K": 256, "N": 64, "G": 64},
        "ragged": {"K": 1280, "N": 1064, "G": 128},
        "large": {"K": 11008, "N": 4096, "G": 128},
    },
    "baseline_notes": "One launch, grid (K / 32, N / 128); each program unpacks a [32, 128] tile with its group's zeros and scales.",
    "deterministic": True,
}

# column j of a packed int32 sits at bit 4 * AWQ_ORDER[j]
AWQ_ORDER = [0, 4, 1, 5, 2, 6, 3, 7]


def _pack(nibbles: torch.Tensor) -> torch.Tensor:
    """[R, C] values in 0..15 -> [R, C // 8] int32 in AWQ order."""
    r, c = nibbles.shape
    n = nibbles.view(r, c // 8, 8).to(torch.int64)
    packed = torch.zeros(r, c // 8, dtype=torch.int64)
    for j, slot in enumerate(AWQ_ORDER):
        packed |= n[:, :, j] << (4 * slot)
    packed = torch.where(packed >= 2 ** 31, packed - 2 ** 32, packed)
    return packed.to(torch.int32)


def _unpack(packed: torch.Tensor) -> torch.Tensor:
    p = packed.to(torch.int64) & 0xFFFFFFFF
    cols = [(p >> (4 * slot)) & 0xF for slot in AWQ_ORDER]
    return torch.stack(cols, dim=-1).reshape(packed.shape[0], -1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """qweight [K, N/8] int32, scales [K/G, N] fp16, qzeros [K/G, N/8] int32, group size G."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    K, N, G = s["K"], s["N"], s["G"]
    qweight = _pack(torch.randint(0, 16, (K, N), generator=g))
    qzeros = _pack(torch.randint(0, 16, (K // G, N), generator=g))
    scales = (0.01 + 0.02 * torch.rand(K // G, N, generator=g)).to(dt)
    return qweight.to(device), scales.to(device), qzeros.to(device), G


def reference(qweight, scales, qzeros, group) -> torch.Tensor:
    q = _unpack(qweight.cpu()).double()
    z = _unpack(qzeros.cpu()).double().repeat_interleave(group, dim=0)
    s = scales.cpu().double().repeat_interleave(group, dim=0)
    return ((q - z) * s).to(scales.dtype).to(scales.device)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["K"] * s["N"] // 2 + s["K"] * s["N"] * 2, "flops": 2 * s["K"] * s["N"]}
