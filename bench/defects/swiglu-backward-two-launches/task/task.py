"""SwiGLU backward: given a, b and dc for c = silu(a) * b, return (da, db) (Liger-Kernel LigerSiLUMulFunction.backward)."""
import torch

META = {
    "name": "swiglu_backward",
    "level": 2,
    "category": "activation",
    "dtypes": ["bfloat16", "float16", "float32"],
    "tolerance": {"bfloat16": {"atol": 3e-2, "rtol": 2e-2}, "float16": {"atol": 1e-2, "rtol": 1e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 64, "N": 200},
        "ragged": {"M": 1000, "N": 1531},
        "large": {"M": 8192, "N": 14336},
    },
    "baseline_notes": "One flat kernel, BLOCK=2048: loads a, b, dc once, computes sigmoid(a) in fp32, "
                      "stores da and db; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """a (gate pre-activation), b (up projection) and dc (upstream gradient), all [M, N] normals."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return tuple(torch.randn(s["M"], s["N"], generator=g).to(device=device, dtype=dt) for _ in range(3))


def reference(a: torch.Tensor, b: torch.Tensor, dc: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    af, bf, dcf = a.float(), b.float(), dc.float()
    sig = torch.sigmoid(af)
    silu = af * sig
    da = dcf * bf * (sig + silu * (1 - sig))
    db = dcf * silu
    return da.to(a.dtype), db.to(a.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": 5 * s["M"] * s["N"] * item, "flops": 10 * s["M"] * s["N"]}
