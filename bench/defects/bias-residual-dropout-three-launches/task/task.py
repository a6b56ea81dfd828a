"""Training-time bias + dropout + residual: out = residual + keep * (x + bias) / (1 - p), where keep is
Triton's counter-based Philox draw tl.rand(seed, i) > p for the flat element index i."""
import torch

META = {
    "name": "bias_dropout_add_train",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["bfloat16"],
    # the unfused path rounds x + bias and the dropped value to bf16 before the residual add
    "tolerance": {"bfloat16": {"atol": 5e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"T": 7, "H": 320},
        "ragged": {"T": 37, "H": 1000},
        "large": {"T": 16384, "H": 4096},
    },
    "baseline_notes": "One kernel over [T, H] tiles (one token row by 1024 columns per program): loads x, bias and "
                      "residual, draws tl.rand(seed, row * H + col), writes out once; 4 warps.",
    "deterministic": True,
}

_M32 = 0xFFFFFFFF
_ROUND_A, _ROUND_B = 0xD2511F53, 0xCD9E8D57
_KEY_A, _KEY_B = 0x9E3779B9, 0xBB67AE85


def _mul32(a: int, b: torch.Tensor) -> tuple:
    """(high, low) 32-bit halves of a * b for a constant a < 2**32 and uint32 values b (held in int64),
    without overflowing int64."""
    a_hi, a_lo = a >> 16, a & 0xFFFF
    p_hi, p_lo = a_hi * b, a_lo * b
    high = (p_hi + (p_lo >> 16)) >> 16
    low = (((p_hi & 0xFFFF) << 16) + p_lo) & _M32
    return high, low


def philox_uniform(seed: int, offsets: torch.Tensor) -> torch.Tensor:
    """tl.rand(seed, offsets) for int32 offsets: Philox-4x32-10 of counter (offset, 0, 0, 0) under key
    (seed_lo, seed_hi), first word mapped to [0, 1) the way triton.language.random does."""
    c0 = offsets.to(torch.int64) & _M32
    c1 = torch.zeros_like(c0)
    c2 = torch.zeros_like(c0)
    c3 = torch.zeros_like(c0)
    k0, k1 = seed & _M32, (seed >> 32) & _M32
    for _ in range(10):
        hi_b, lo_b = _mul32(_ROUND_B, c2)
        hi_a, lo_a = _mul32(_ROUND_A, c0)
        c0, c1, c2, c3 = hi_b ^ c1 ^ k0, lo_b, hi_a ^ c3 ^ k1, lo_a
        k0, k1 = (k0 + _KEY_A) & _M32, (k1 + _KEY_B) & _M32
    x = torch.where(c0 >= 2**31, c0 - 2**32, c0)       # bitcast to int32
    x = torch.where(x < 0, -x - 1, x)
    return x.to(torch.float32) * torch.tensor(4.6566127342e-10, dtype=torch.float32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [T, H] attention output projection (bias skipped in the GEMM), bias [H], residual [T, H], p, seed."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["T"], s["H"], generator=g)
    bias = 0.1 * torch.randn(s["H"], generator=g)
    residual = torch.randn(s["T"], s["H"], generator=g)
    rng_seed = int(torch.randint(0, 2**31 - 1, (1,), generator=g))
    return x.to(dt).to(device), bias.to(dt).to(device), residual.to(dt).to(device), 0.1, rng_seed


def reference(x: torch.Tensor, bias: torch.Tensor, residual: torch.Tensor, p: float, seed: int) -> torch.Tensor:
    T, H = x.shape
    offsets = torch.arange(T * H, device=x.device, dtype=torch.int64).view(T, H)
    keep = philox_uniform(seed, offsets) > p
    y = torch.where(keep, (x.float() + bias.float()) / (1.0 - p), 0.0)
    return (residual.float() + y).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["H"]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 3 * n * item + s["H"] * item, "flops": 4 * n}
