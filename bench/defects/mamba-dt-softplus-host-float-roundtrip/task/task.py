"""Mamba-2 time-step preprocessing: dt = clamp(softplus(dt + dt_bias), dt_min, dt_max) per head, in fp32, result in the input dtype."""
import torch

META = {
    "name": "mamba_dt_softplus",
    "level": 2,
    "category": "activation",
    "dtypes": ["bfloat16", "float16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}, "float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"B": 2, "L": 50, "H": 12},
        "ragged": {"B": 3, "L": 1001, "H": 80},
        "large": {"B": 64, "L": 8192, "H": 128},
    },
    "baseline_notes": "One kernel over [T, H] rows (T = B * L), 64 rows x H heads per program: load dt in its dtype, "
                      "add dt_bias, softplus (threshold 20) and clamp in fp32, store in the input dtype; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dt [B, L, H] raw projections, dt_bias [H] fp32 (inverse-softplus of dt in [1e-3, 1e-1]), dt_min, dt_max."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = (2.0 * torch.randn(s["B"], s["L"], s["H"], generator=g)).to(getattr(torch, dtype or META["dtypes"][0]))
    init = torch.exp(torch.rand(s["H"], generator=g) * (torch.log(torch.tensor(0.1)) - torch.log(torch.tensor(1e-3)))
                     + torch.log(torch.tensor(1e-3)))
    dt_bias = init + torch.log(-torch.expm1(-init))
    return dt.to(device), dt_bias.to(device), 1e-4, 10.0


def reference(dt: torch.Tensor, dt_bias: torch.Tensor, dt_min: float, dt_max: float) -> torch.Tensor:
    out = torch.nn.functional.softplus(dt.float() + dt_bias)
    return out.clamp(dt_min, dt_max).to(dt.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["L"] * s["H"]
    return {"bytes": 2 * n * getattr(torch, dtype or META["dtypes"][0]).itemsize + 4 * s["H"], "flops": 6 * n}
