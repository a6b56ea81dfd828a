"""Multichannel Wiener filter, M-step of Open-Unmix's EM post-filter (openunmix/filtering.py,
expectation_maximization; norbert's get_local_gaussian_model).

From the current stereo source estimates y (complex STFTs, one per source j), re-estimate per
window w of wiener_win_len frames (Separator filters each window independently):

    v[w, t, f, j]   = mean_c |y[w, t, f, c, j]|^2                       (source PSD)
    R[w, f, :, :, j] = sum_t y_j y_j^H / (eps + sum_t v[w, t, f, j])     (spatial covariance, 2 x 2)

with y_j y_j^H[a, b] = y_a * conj(y_b). Complex values are trailing (real, imag) pairs as in
Open-Unmix: y [W, L, F, 2, 2, J] (sources innermost); returns (v [W, L, F, J] fp32,
R [W, F, 2, 2, 2, J] fp32).
"""
import torch

META = {
    "name": "wiener_em_mstep",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"W": 2, "L": 20, "F": 40, "J": 4},
        "ragged": {"W": 1, "L": 37, "F": 45, "J": 4},
        "large": {"W": 26, "L": 300, "F": 2049, "J": 4},
    },
    "baseline_notes": "Grid (window, 16-frame block, 32-bin block); each program loads its [16, 32, J] "
                      "tiles of the four channel components, writes v, sums |y_0|^2, |y_1|^2 and "
                      "y_0 conj(y_1) over its frames and adds the [32, J] partials into an fp32 "
                      "accumulator with one vector atomic each; a second kernel divides by "
                      "eps + sum_t v and writes the full Hermitian R. 4 warps, no autotune.",
    "deterministic": True,
}
EPS = 1e-10


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Source STFT estimates y with a 1/f envelope, per-source loudness and a per-bin panning
    (correlated channels, as after the initial Wiener step), scaled like Open-Unmix's max_abs step."""
    s = META["sizes"][size]
    w, l, f, j = s["W"], s["L"], s["F"], s["J"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    envelope = 1.0 / (1.0 + torch.arange(f, dtype=torch.float32) / 16.0)
    gain = torch.rand(w, l, f, j, generator=g) * 2.0 * envelope[None, None, :, None]
    pan = torch.rand(w, 1, f, j, generator=g)
    common = torch.randn(w, l, f, 2, j, generator=g)              # (re/im)
    own = torch.randn(w, l, f, 2, 2, j, generator=g)              # (c, re/im)
    left = gain[:, :, :, None, :] * (pan[:, :, :, None, :] * common + 0.3 * own[:, :, :, 0])
    right = gain[:, :, :, None, :] * ((1 - pan[:, :, :, None, :]) * common + 0.3 * own[:, :, :, 1])
    y = torch.stack([left, right], dim=3)                          # [W, L, F, 2, 2, J]
    return y.to(device=device, dtype=dt), EPS


def reference(y: torch.Tensor, eps: float) -> tuple:
    yc = torch.view_as_complex(y.double().permute(0, 1, 2, 5, 3, 4).contiguous())  # [W, L, F, J, 2]
    v = (yc.abs() ** 2).mean(dim=-1)                                                # [W, L, F, J]
    cov = torch.einsum("wlfja,wlfjb->wfjab", yc, yc.conj())                          # [W, F, J, 2, 2]
    weight = eps + v.sum(dim=1)                                                     # [W, F, J]
    r = cov / weight[..., None, None]
    r = torch.view_as_real(r).permute(0, 1, 3, 4, 5, 2).contiguous()                # [W, F, 2, 2, 2, J]
    return v.to(y.dtype), r.to(y.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    bins = s["W"] * s["L"] * s["F"]
    return {"bytes": bins * 20 * s["J"], "flops": bins * 14 * s["J"]}
