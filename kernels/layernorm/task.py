"""LayerNorm over the last dimension with affine weight and bias (torch.nn.LayerNorm)."""
import torch

META = {
    "name": "layernorm",
    "level": 1,
    "category": "norm",
    "dtypes": ["float16", "bfloat16", "float32"],
    "tolerance": {"float16": {"atol": 1e-2, "rtol": 1e-2},
                  "bfloat16": {"atol": 3e-2, "rtol": 2e-2},
                  "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 64, "N": 128},
        "ragged": {"M": 1000, "N": 1531},
        "large": {"M": 16384, "N": 4096},
    },
    "baseline_notes": "One program per row, BLOCK = next_power_of_2(N), two-pass mean and "
                      "variance from the row held in registers, fp32 math; no autotune.",
    "deterministic": True,
}
EPS = 1e-5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [M, N] with a per-row offset, weight [N] near 1, bias [N] near 0."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(s["M"], s["N"], generator=g) + torch.randn(s["M"], 1, generator=g)
    w = 1 + 0.1 * torch.randn(s["N"], generator=g)
    b = 0.1 * torch.randn(s["N"], generator=g)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return tuple(t.to(device=device, dtype=dt) for t in (x, w, b))


def reference(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    y = torch.nn.functional.layer_norm(x.float(), (x.shape[-1],), w.float(), b.float(), EPS)
    return y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    return {"bytes": (2 * s["M"] * s["N"] + 2 * s["N"]) * item, "flops": 8 * s["M"] * s["N"]}
