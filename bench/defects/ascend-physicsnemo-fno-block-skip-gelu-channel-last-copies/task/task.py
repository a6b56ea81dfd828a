"""Epilogue of a 2-D Fourier neural operator block (PhysicsNeMo FNO2DEncoder layer).

Every FNO layer computes x <- gelu(SpectralConv2d(x) + W(x)), where W is the pointwise skip path,
a 1x1 Conv2d(width, width) with bias. The spectral branch (rfft2, mode mixing, irfft2) runs as its
own kernels; this task is the fused rest of the layer on the channel-first activations:
    y[b, o, h, w] = gelu( sum_c weight[o, c] * x[b, c, h, w] + bias[o] + x_spec[b, o, h, w] )
with the exact (erf) GELU of torch.nn.GELU(). Inputs x [B, C, H, W], x_spec [B, O, H, W],
weight [O, C] (the conv kernel without its 1x1 spatial dims), bias [O]; output [B, O, H, W] fp32.
"""
import torch

META = {
    "name": "fno_block_skip_gelu",
    "level": 2,
    "category": "matmul-epilogue",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 2, "C": 16, "H": 8, "W": 8},
        "ragged": {"B": 3, "C": 20, "H": 9, "W": 7},
        "large": {"B": 16, "C": 64, "H": 256, "W": 256},
    },
    "baseline_notes": "40 programs loop over (batch, 128-pixel block) tiles of the channel-first "
                      "activations; the [O, C] weight and the bias are loaded once per program, each "
                      "tile is one tl.dot(weight, x[b, :, pixels]) on the cube unit with the bias, "
                      "the spectral branch and the erf GELU fused as its epilogue, stored straight "
                      "into y[b, :, pixels]; no layout copies, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, C, H, W], x_spec [B, C, H, W] (spectral branch output), weight [C, C], bias [C]."""
    s = META["sizes"][size]
    B, C, H, W = s["B"], s["C"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(B, C, H, W, generator=g)
    x_spec = 0.5 * torch.randn(B, C, H, W, generator=g)
    bound = 1.0 / C ** 0.5  # nn.Conv2d's default init range for a 1x1 kernel
    weight = (torch.rand(C, C, generator=g) * 2 - 1) * bound
    bias = (torch.rand(C, generator=g) * 2 - 1) * bound
    return tuple(t.to(device=device, dtype=dt) for t in (x, x_spec, weight, bias))


def reference(x: torch.Tensor, x_spec: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    z = torch.einsum("oc,bchw->bohw", weight.double(), x.double())
    z = z + bias.double()[None, :, None, None] + x_spec.double()
    return torch.nn.functional.gelu(z).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, C, H, W = s["B"], s["C"], s["H"], s["W"]
    n = B * H * W
    return {"bytes": 4 * (3 * n * C + C * C + C), "flops": 2 * n * C * C + 10 * n * C}
