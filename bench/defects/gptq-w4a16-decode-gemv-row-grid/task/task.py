"""Weight-only int4 linear for decode (GPTQ w4a16, group size 128, no act-order): out = x @ W with
W[k, n] = (q[k, n] - z[k // G, n]) * s[k // G, n]; q packed 8 per int32 along K (qweight [K/8, N]),
zeros packed 8 per int32 along N (qzeros [K/G, N/8]), fp16 scales [K/G, N]. Output fp16 [M, N]."""
import torch

META = {
    "name": "gptq_w4a16_decode_linear",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"M": 3, "K": 512, "N": 128, "G": 128},
        "ragged": {"M": 5, "K": 384, "N": 200, "G": 128},
        "large": {"M": 32, "K": 8192, "N": 57344, "G": 128},
    },
    "baseline_notes": "Grid (m-tile of up to 16-64 rows, 128-column block); the K loop unpacks and dequantizes one "
                      "[64, 128] weight tile to fp16 per step and feeds all rows through one tl.dot.",
    "deterministic": True,
}


def _pack_along(vals: torch.Tensor, dim: int) -> torch.Tensor:
    """Pack 4-bit values (0..15) eight per int32 along `dim`, element j of a group in bits 4j..4j+3."""
    v = vals.movedim(dim, -1)
    v = v.reshape(*v.shape[:-1], v.shape[-1] // 8, 8)
    packed = torch.zeros(v.shape[:-1], dtype=torch.int64, device=v.device)
    for j in range(8):
        packed |= v[..., j].to(torch.int64) << (4 * j)
    packed = torch.where(packed >= 2**31, packed - 2**32, packed).to(torch.int32)
    return packed.movedim(-1, dim).contiguous()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, K] fp16 activations, qweight [K/8, N] int32, scales [K/G, N] fp16, qzeros [K/G, N/8] int32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    M, K, N, G = s["M"], s["K"], s["N"], s["G"]
    x = torch.randn(M, K, generator=g).to(dt)
    # eight uniform 4-bit codes per word: a uniformly random int32 is exactly that
    qweight = torch.randint(-(2**31), 2**31, (K // 8, N), generator=g, dtype=torch.int64).to(torch.int32)
    z = torch.randint(6, 10, (K // G, N), generator=g)
    scales = (torch.rand(K // G, N, generator=g) * 0.01 + 0.002).to(dt)
    return (x.to(device), qweight.to(device), scales.to(device), _pack_along(z, 1).to(device))


def _unpack_along(packed: torch.Tensor, dim: int) -> torch.Tensor:
    p = packed.movedim(dim, -1).to(torch.int64) & 0xFFFFFFFF
    v = (p[..., None] >> (4 * torch.arange(8, dtype=torch.int64, device=p.device))) & 0xF
    return v.reshape(*p.shape[:-1], p.shape[-1] * 8).movedim(-1, dim)


def reference(x, qweight, scales, qzeros):
    K = qweight.shape[0] * 8
    G = K // scales.shape[0]
    q = _unpack_along(qweight, 0).double()
    z = _unpack_along(qzeros, 1).double().repeat_interleave(G, dim=0)
    w = (q - z) * scales.double().repeat_interleave(G, dim=0)
    return (x.double() @ w).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    M, K, N, G = s["M"], s["K"], s["N"], s["G"]
    return {"bytes": K * N // 2 + 2 * (K // G) * N + (K // G) * N // 2 + 2 * M * K + 2 * M * N,
            "flops": 2 * M * K * N}
