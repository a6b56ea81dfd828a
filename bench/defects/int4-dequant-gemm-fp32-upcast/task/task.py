"""W4A16 linear (GPTQ packing, group size 128, no act-order): out = x @ dequant(qweight), with
W[k, n] = (q[k, n] - zero[k // 128, n]) * scale[k // 128, n]."""
import torch

GROUP = 128

META = {
    "name": "w4a16_gemm",
    "level": 3,
    "category": "gemm",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 64, "K": 256, "N": 128},
        "ragged": {"M": 77, "K": 384, "N": 200},
        "large": {"M": 4096, "K": 4096, "N": 11008},
    },
    "baseline_notes": "One program per 128x128 output tile (GROUP_M=8 swizzle), K loop of 64: unpack the int4 "
                      "nibbles of the [64, 128] weight tile, subtract the group's zero points and scale in fp16, "
                      "fp16 tl.dot with an fp32 accumulator; 8 warps, 3 stages.",
    "deterministic": True,
}


def _pack_along_rows(q: torch.Tensor) -> torch.Tensor:
    """[R, C] values in 0..15 -> [R / 8, C] int32, nibble i of word r holds row 8 r + i."""
    q = q.to(torch.int64).reshape(q.shape[0] // 8, 8, q.shape[1])
    word = sum(q[:, i] << (4 * i) for i in range(8))
    return torch.where(word >= 2**31, word - 2**32, word).to(torch.int32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, K] fp16 activations; qweight [K / 8, N] int32 (8 nibbles along K); scales [K / 128, N] fp16;
    qzeros [K / 128, N / 8] int32 (8 nibbles along N), as GPTQ checkpoints store them."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    M, K, N = s["M"], s["K"], s["N"]
    x = torch.randn(M, K, generator=g).to(dt)
    q = torch.randint(0, 16, (K, N), generator=g)
    zeros = torch.randint(6, 10, (K // GROUP, N), generator=g)
    scales = (torch.rand(K // GROUP, N, generator=g) * 0.01 + 0.005).to(dt)
    qweight = _pack_along_rows(q)
    qzeros = _pack_along_rows(zeros.t().contiguous()).t().contiguous()
    return x.to(device), qweight.to(device), scales.to(device), qzeros.to(device)


def _unpack_rows(packed: torch.Tensor) -> torch.Tensor:
    shifts = torch.arange(0, 32, 4, device=packed.device)
    nib = (packed.to(torch.int64)[:, None, :] >> shifts[None, :, None]) & 0xF
    return nib.reshape(packed.shape[0] * 8, packed.shape[1])


def reference(x: torch.Tensor, qweight: torch.Tensor, scales: torch.Tensor, qzeros: torch.Tensor) -> torch.Tensor:
    q = _unpack_rows(qweight)                                      # [K, N]
    zeros = _unpack_rows(qzeros.t().contiguous()).t()              # [K / 128, N]
    w = (q - zeros.repeat_interleave(GROUP, 0)).double() * scales.double().repeat_interleave(GROUP, 0)
    return (x.double() @ w).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    M, K, N = s["M"], s["K"], s["N"]
    return {"bytes": 2 * M * K + K * N // 2 + 2 * M * N + 3 * (K // GROUP) * N, "flops": 2 * M * N * K}
