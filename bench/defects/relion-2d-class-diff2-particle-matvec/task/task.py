"""Coarse squared differences of RELION 2-D classification (the E-step's getAllSquaredDifferencesCoarse).

Rows are the shifted particle images of a batch (particle x coarse translation, RELION's
precalculated "shifted images"), columns the reference projections (class x in-plane rotation). Over the
P Fourier pixels inside the current resolution limit (complex, stored interleaved re/im), with the
row's CTF and the optics group's inverse noise spectrum Minvsigma2:

    diff2[n, r] = 0.5 * sum_p Minvsigma2[p] * | Fimg[n, p] - Fctf[n, p] * Fref[r, p] |^2

(the Gaussian log-likelihood up to a constant; the weights exp(min diff2 - diff2) follow outside this kernel).
Returns diff2 [N, R] fp32.
"""
import math

import torch

META = {
    "name": "relion_diff2_coarse",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 6, "R": 20, "P": 40},
        "ragged": {"N": 11, "R": 37, "P": 75},
        "large": {"N": 1024, "R": 1800, "P": 1600},
    },
    "baseline_notes": "Grid (cdiv(N, 64), cdiv(R, 64)); each program walks the 2P interleaved components in "
                      "chunks of 32, expands the square: 0.5 * (sum w|X|^2 + (w c^2) . |A|^2 - 2 (w c X) . A), "
                      "with the two cross terms as tl.dot (input_precision tf32x3: fp32-accurate on the tensor cores) over [64, 32] x [32, 64] tiles and the image "
                      "norm as a row sum of the loaded tile; 4 warps, 3 stages, no autotune.",
    "deterministic": True,
}
RES_RADIUS = 32.0  # current resolution limit in Fourier pixels (coarse 128 box)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Fimg [N, P, 2], Fref [R, P, 2], Fctf [N, P], Minvsigma2 [P] (pixels ordered by resolution shell)."""
    s = META["sizes"][size]
    n, r, p = s["N"], s["R"], s["P"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    rad = RES_RADIUS * torch.sqrt((torch.arange(p, dtype=torch.float64) + 0.5) / p)
    sigma2 = 2.0 * torch.exp(-rad / 20.0) + 0.2
    refs = torch.randn(r, p, 2, generator=g, dtype=torch.float64) * (3.0 * torch.exp(-rad / 16.0))[None, :, None]
    defocus = 1.0 + 2.0 * torch.rand(n, 1, generator=g, dtype=torch.float64)
    ctf = -torch.sin(0.01 * defocus * rad[None, :] ** 2 + 0.1)
    truth = torch.randint(0, r, (n,), generator=g)
    noise = torch.randn(n, p, 2, generator=g, dtype=torch.float64) * torch.sqrt(sigma2)[None, :, None]
    imgs = ctf[:, :, None] * refs[truth] + noise

    def put(t):
        return t.to(device=device, dtype=dt).contiguous()
    return put(imgs), put(refs), put(ctf), put(1.0 / sigma2)


def reference(imgs: torch.Tensor, refs: torch.Tensor, ctf: torch.Tensor, inv_sigma2: torch.Tensor) -> torch.Tensor:
    x, a, c, w = imgs.double(), refs.double(), ctf.double(), inv_sigma2.double()
    xi2 = (w[None, :, None] * x * x).sum(dim=(1, 2))
    a2 = (a * a).sum(dim=2)                                    # [R, P]
    term_a = (w[None, :] * c * c) @ a2.T                       # [N, R]
    cross = ((w[None, :] * c)[:, :, None] * x).reshape(x.shape[0], -1) @ a.reshape(a.shape[0], -1).T
    return (0.5 * (xi2[:, None] + term_a - 2.0 * cross)).to(imgs.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, r, p = s["N"], s["R"], s["P"]
    return {"bytes": 4 * (2 * n * p + 2 * r * p + n * p + p + n * r), "flops": 8 * n * r * p}
