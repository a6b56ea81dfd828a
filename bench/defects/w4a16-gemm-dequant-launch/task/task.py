"""W4A16 GPTQ-style linear at decode batch: out = x @ dequant(qweight), 4-bit weights packed 8 per int32 along K, group-wise fp16 scales (group 128), zero point 8."""
import torch

GROUP = 128

META = {
    "name": "w4a16_gemm",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 16, "K": 256, "N": 64},
        "ragged": {"M": 16, "K": 1024, "N": 1000},
        "large": {"M": 16, "K": 8192, "N": 8192},
    },
    "baseline_notes": "16x64x64 tiles: the packed int32 weight tile is loaded, unpacked with shifts and masks, "
                      "scaled by its group's fp16 scales and fed to tl.dot inside the K loop; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, K] fp16; qweight [K/8, N] int32 (nibble j of row r is k = 8r + j); scales [K/128, N] fp16."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    M, K, N = s["M"], s["K"], s["N"]
    x = torch.randn(M, K, generator=g).to(torch.float16)
    q = torch.randint(0, 16, (K, N), generator=g, dtype=torch.int64)
    packed = torch.zeros(K // 8, N, dtype=torch.int64)
    for j in range(8):
        packed |= q[j::8] << (4 * j)
    packed = torch.where(packed >= 2**31, packed - 2**32, packed).to(torch.int32)
    scales = ((0.5 + torch.rand(K // GROUP, N, generator=g)) / (8 * K ** 0.5)).to(torch.float16)
    return x.to(device), packed.to(device), scales.to(device)


def dequantize(qweight: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    shifts = torch.arange(8, device=qweight.device, dtype=torch.int32) * 4
    q = (qweight[:, None, :] >> shifts[None, :, None]) & 0xF          # [K/8, 8, N]
    q = q.reshape(-1, qweight.shape[1]).float() - 8.0
    return q * scales.float().repeat_interleave(GROUP, dim=0)


def reference(x: torch.Tensor, qweight: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    return (x.float() @ dequantize(qweight, scales)).to(torch.float16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    M, K, N = s["M"], s["K"], s["N"]
    return {"bytes": 2 * M * K + K * N // 2 + 2 * (K // GROUP) * N + 2 * M * N, "flops": 2 * M * N * K}
