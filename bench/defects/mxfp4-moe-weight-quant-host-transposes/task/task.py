"""MXFP4 quantization of MoE expert weights along K (OCP microscaling: 32-element blocks sharing one
E8M0 power-of-two scale, FP4 E2M1 elements packed two per byte), as done to bf16 gpt-oss expert weights
[E, K, N] before the MXFP4 MoE GEMM: the block axis is K, which is not the contiguous one."""
import torch

META = {
    "name": "mxfp4_moe_weight_quant",
    "level": 2,
    "category": "quantization",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"E": 2, "K": 128, "N": 96},
        "ragged": {"E": 3, "K": 160, "N": 72},
        "large": {"E": 32, "K": 2880, "N": 2880},
    },
    "baseline_notes": "3-D grid (expert, 64-row K block, 128-column N block): each program loads a [64, 128] bf16 "
                      "tile (rows contiguous along N), takes the absmax of each 32-row block per column, derives "
                      "the E8M0 exponent from the fp32 bits, rounds to E2M1 by threshold compares and packs row "
                      "pairs into bytes; codes [E, K/2, N] and scales [E, K/32, N] stored N-contiguous; 4 warps.",
    "deterministic": True,
}

BLOCK = 32
E2M1_EMAX = 2  # largest E2M1 value 6.0 = 1.5 * 2**2


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """w [E, K, N] bf16 expert weights with per-column magnitudes spread over a few octaves."""
    s = META["sizes"][size]
    dt = getattr(torch, dtype or META["dtypes"][0])
    g = torch.Generator(device=device).manual_seed(seed)
    w = torch.randn(s["E"], s["K"], s["N"], generator=g, device=device)
    col = torch.exp2(torch.randint(-9, -3, (s["E"], 1, s["N"]), generator=g, device=device).float())
    return ((w * col).to(dt),)


def _e2m1_code(a: torch.Tensor) -> torch.Tensor:
    """Round-to-nearest-even E2M1 magnitude code (0..7) of |v| <= 6 (saturating above)."""
    code = torch.zeros_like(a, dtype=torch.int64)
    for thr, ge in ((0.25, False), (0.75, True), (1.25, False), (1.75, True), (2.5, False), (3.5, True),
                    (5.0, False)):
        code += (a >= thr if ge else a > thr).long()
    return code


def reference(w: torch.Tensor) -> tuple:
    """(codes uint8 [E, K // 2, N]: row 2i in the low nibble, row 2i + 1 in the high one;
    scales uint8 [E, K // 32, N]: biased E8M0 exponents)."""
    E, K, N = w.shape
    x = w.float().reshape(E, K // BLOCK, BLOCK, N)
    amax = x.abs().amax(dim=2, keepdim=True)
    e = ((amax.view(torch.int32) >> 23) & 0xFF) - 127 - E2M1_EMAX
    e = e.clamp(-127, 125)
    inv = ((127 - e) << 23).view(torch.float32)
    v = x * inv
    code = _e2m1_code(v.abs()) | ((v < 0).long() << 3)
    code = code.reshape(E, K // 2, 2, N)
    packed = (code[:, :, 0] | (code[:, :, 1] << 4)).to(torch.uint8)
    return packed, (e + 127).reshape(E, K // BLOCK, N).to(torch.uint8)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["E"] * s["K"] * s["N"]
    return {"bytes": 2 * n + n // 2 + n // BLOCK, "flops": 12 * n}
