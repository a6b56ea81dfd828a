"""GPTQ W4A16 linear (symmetric 4-bit, group size 128, act_order off) as served by vLLM-Ascend / MindIE:
y = x @ W with W[k, n] = (q[k, n] - 8) * scales[k // G, n], where the 4-bit codes q are packed eight per
int32 along K (qweight[k // 8, n] holds q[k, n] in bits 4 * (k % 8) .. 4 * (k % 8) + 3). Output fp16 [M, N]."""
import torch

META = {
    "name": "gptq_w4a16_linear",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 3, "K": 256, "N": 96, "G": 128},
        "ragged": {"M": 13, "K": 384, "N": 200, "G": 128},
        "large": {"M": 16, "K": 27648, "N": 5120, "G": 128},
    },
    "baseline_notes": "Programs sized to the 20 cube cores walk (16-row, 128-column) output tiles; per 128-deep K "
                      "step the [16, 128] int32 packed tile is one contiguous load, unpacked on chip with a "
                      "broadcast shift to [128, 128] codes, scaled by its group's scale row and fed to the cube "
                      "as fp16 with an fp32 accumulator.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, K] activations, qweight int32 [K / 8, N], scales [K / G, N] and the group size G."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    M, K, N, G = s["M"], s["K"], s["N"], s["G"]
    x = torch.randn(M, K, generator=g)
    codes = torch.randint(0, 16, (K // 8, 8, N), generator=g, dtype=torch.uint8)
    words = torch.zeros(K // 8, N, dtype=torch.int64)
    for j in range(8):
        words |= codes[:, j, :].long() << (4 * j)
    qweight = torch.where(words >= 2 ** 31, words - 2 ** 32, words).to(torch.int32)
    scales = (torch.rand(K // G, N, generator=g) * 0.02 + 0.005) / (K / 256) ** 0.5
    return x.to(dt).to(device), qweight.to(device), scales.to(dt).to(device), G


def reference(x: torch.Tensor, qweight: torch.Tensor, scales: torch.Tensor, group_size: int) -> torch.Tensor:
    K = x.shape[1]
    words = qweight.long() & 0xFFFFFFFF
    shifts = (torch.arange(8, device=x.device, dtype=torch.int64) * 4)[None, :, None]
    codes = ((words[:, None, :] >> shifts) & 0xF).reshape(K, -1)
    w = (codes - 8).double() * scales.double().repeat_interleave(group_size, dim=0)
    return (x.double() @ w).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    M, K, N, G = s["M"], s["K"], s["N"], s["G"]
    return {"bytes": 2 * M * K + K * N // 2 + 2 * (K // G) * N + 2 * M * N, "flops": 2 * M * N * K}
