"""Diffusion convolution of DCRNN's DCGRU cell: the K = 2 diffusion steps over one random-walk support.

DCRNN's gconv flattens the cell input [batch, nodes, input_size] (input_size = input_dim + rnn_units,
the GRU input and hidden state side by side) to x0 [N, D] with D = input_size * batch, and for every
support (the dense random-walk transition matrices of the sensor graph, D_O^-1 W and D_I^-1 W^T,
transposed as in calculate_random_walk_matrix(...).T) takes Chebyshev-style diffusion steps
    x1 = S @ x0
    x2 = 2 * S @ x1 - x0
whose stack [x1, x2] then feeds the gconv weight matmul. Returns [2, N, D] fp32.
"""
import math

import torch

META = {
    "name": "dcrnn_diffusion_steps",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-3, "rtol": 5e-3}},
    "sizes": {
        "small": {"N": 24, "B": 2, "F": 5},
        "ragged": {"N": 37, "B": 3, "F": 7},
        "large": {"N": 325, "B": 64, "F": 66},
    },
    "baseline_notes": "Two launches (x1, then x2 = 2 S x1 - x0) of one tiled kernel: 20 programs (the A2's AI "
                      "cores) loop over 64 x 128 output tiles, each a K loop of 64 x 64 support tiles times "
                      "64 x 128 feature tiles on the cube (tl.dot, fp32 accumulate), the Chebyshev "
                      "combination and one store in the epilogue; no autotune.",
    "deterministic": True,
}


def _support(n: int, g: torch.Generator) -> torch.Tensor:
    """Random-walk support of a road-sensor graph: thresholded Gaussian kernel of distances, row-normalised."""
    pos = torch.rand(n, 2, generator=g) * 40.0                      # sensor positions, km
    dist = torch.cdist(pos, pos) * (1.0 + 0.6 * torch.rand(n, n, generator=g))  # road > straight line
    sigma = dist.std()
    w = torch.exp(-(dist / sigma) ** 2)
    w[w < 0.1] = 0.0                                                 # DCRNN's normalized_k
    w.fill_diagonal_(1.0)
    p = w / w.sum(dim=1, keepdim=True)                              # D_O^-1 W
    return p.t().contiguous()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """support [N, N] (dense random-walk matrix, transposed) and x0 [N, input_size * batch]."""
    s = META["sizes"][size]
    n, d = s["N"], s["B"] * s["F"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    support = _support(n, g)
    x0 = torch.randn(n, d, generator=g) / math.sqrt(2.0)
    return support.to(dt).to(device), x0.to(dt).to(device)


def reference(support: torch.Tensor, x0: torch.Tensor) -> torch.Tensor:
    s, x = support.double(), x0.double()
    x1 = s @ x
    x2 = 2.0 * (s @ x1) - x
    return torch.stack([x1, x2]).to(x0.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, d = s["N"], s["B"] * s["F"]
    return {"bytes": 4 * (n * n + 4 * n * d), "flops": 4 * n * n * d}
