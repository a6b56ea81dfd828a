"""AWQ W4A16 GEMM (vLLM's Triton awq_gemm): out = x @ dequant(qweight), with 4-bit weights packed
eight per int32 along N in AWQ's interleaved nibble order [0, 2, 4, 6, 1, 3, 5, 7], per-group
(128 rows of K) 4-bit zero points packed the same way and fp16 scales."""
import torch

META = {
    "name": "awq_w4a16_gemm",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"M": 32, "K": 256, "N": 128},
        "ragged": {"M": 45, "K": 384, "N": 200},
        "large": {"M": 8192, "K": 1536, "N": 17920},
    },
    "baseline_notes": "2-D tiled tl.dot GEMM, 128x128x64 tiles, 8 warps, 3 stages: each K step loads a [64, 128] "
                      "slice of packed words (column n reads word n // 8), shifts out its nibble, subtracts the "
                      "group's zero point, multiplies by the group's fp16 scale and feeds the fp16 tile to tl.dot "
                      "with an fp32 accumulator; one fp16 store per output tile. No autotune.",
    "deterministic": True,
}

GROUP = 128
AWQ_ORDER = (0, 2, 4, 6, 1, 3, 5, 7)  # nibble i of a word holds column 8 * w + AWQ_ORDER[i]


def _pack_awq(q: torch.Tensor) -> torch.Tensor:
    """[R, C] int values 0..15 -> [R, C // 8] int32 words in AWQ order."""
    R, C = q.shape
    q = q.reshape(R, C // 8, 8).long()
    word = torch.zeros(R, C // 8, dtype=torch.int64, device=q.device)
    for i, col in enumerate(AWQ_ORDER):
        word |= q[:, :, col] << (4 * i)
    return torch.where(word >= 2 ** 31, word - 2 ** 32, word).to(torch.int32)


def _unpack_awq(word: torch.Tensor) -> torch.Tensor:
    R, W = word.shape
    w = word.long() & 0xFFFFFFFF
    cols = torch.empty(R, W, 8, dtype=torch.int64, device=word.device)
    for i, col in enumerate(AWQ_ORDER):
        cols[:, :, col] = (w >> (4 * i)) & 0xF
    return cols.reshape(R, W * 8)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, K] fp16, qweight [K, N // 8] int32, qzeros [K // 128, N // 8] int32, scales [K // 128, N] fp16."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator(device=device).manual_seed(seed)
    M, K, N = s["M"], s["K"], s["N"]
    x = torch.randn(M, K, generator=g, device=device).to(dt)
    q = torch.randint(0, 16, (K, N), generator=g, device=device)
    z = torch.randint(5, 11, (K // GROUP, N), generator=g, device=device)
    scales = (0.004 + 0.004 * torch.rand(K // GROUP, N, generator=g, device=device)).to(dt)
    return x, _pack_awq(q), _pack_awq(z), scales


def reference(x: torch.Tensor, qweight: torch.Tensor, qzeros: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    q = _unpack_awq(qweight)
    z = _unpack_awq(qzeros).repeat_interleave(GROUP, dim=0)
    w = (q - z).to(scales.dtype) * scales.repeat_interleave(GROUP, dim=0)
    return (x.float() @ w.float()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    M, K, N = s["M"], s["K"], s["N"]
    return {"bytes": 2 * M * K + K * N // 2 + 2 * M * N + (K // GROUP) * N * 2.5, "flops": 2 * M * N * K}
