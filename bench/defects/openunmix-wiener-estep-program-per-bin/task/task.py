"""Multichannel Wiener filter, E-step of Open-Unmix's EM post-filter (openunmix/filtering.py,
expectation_maximization; norbert's wiener_gain / apply_filter).

For every window w of wiener_win_len frames (Separator splits the track into such windows and
filters each independently), frame t and frequency bin f, with J source power spectral densities
v[w, t, f, j] and per-window spatial covariance matrices R[w, f, :, :, j] (2 x 2 complex Hermitian):

    Cxx      = sqrt(eps) * I + sum_j v_j R_j                 (mixture covariance, 2 x 2 complex)
    G_j      = v_j R_j Cxx^{-1}                              (multichannel Wiener gain)
    y_j      = G_j x                                         (x: the stereo mixture STFT bin)

Complex values are stored as trailing (real, imag) pairs, as in Open-Unmix: x [W, L, F, 2, 2],
v [W, L, F, J], R [W, F, 2, 2, 2, J]; returns y [W, L, F, 2, 2, J] fp32 (sources innermost).
"""
import torch

META = {
    "name": "wiener_em_estep",
    "level": 2,
    "category": "signal_processing",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"W": 2, "L": 3, "F": 16, "J": 4},
        "ragged": {"W": 1, "L": 5, "F": 19, "J": 4},
        "large": {"W": 26, "L": 300, "F": 2049, "J": 4},
    },
    "baseline_notes": "One launch; each program handles 128 consecutive time-frequency bins (bins "
                      "contiguous along f), the J=4 sources as the second tile axis: Cxx summed over "
                      "sources, closed-form 2x2 complex inverse, z = Cxx^-1 x, y_j = v_j R_j z. "
                      "4 warps, no autotune.",
    "deterministic": True,
}
EPS = 1e-10


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Mixture STFT x (scaled like Open-Unmix's max_abs step), source PSDs v with a 1/f envelope and
    per-source loudness, well-conditioned Hermitian spatial covariances R (trace ~ 2), and eps."""
    s = META["sizes"][size]
    w, l, f, j = s["W"], s["L"], s["F"], s["J"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    envelope = 1.0 / (1.0 + torch.arange(f, dtype=torch.float32) / 16.0)
    v = (torch.rand(w, l, f, j, generator=g) * 4.0 + 0.02) * envelope[None, None, :, None]
    a = torch.randn(w, f, j, 2, 2, generator=g)                      # steering vector (c, re/im)
    ac = torch.complex(a[..., 0], a[..., 1])                          # [W, F, J, 2]
    r = ac[..., :, None] * ac.conj()[..., None, :] + 0.3 * torch.eye(2)
    r = 2.0 * r / torch.diagonal(r, dim1=-2, dim2=-1).sum(-1).real[..., None, None]
    r = torch.view_as_real(r).permute(0, 1, 3, 4, 5, 2).contiguous()  # [W, F, 2, 2, 2, J]
    mag = torch.sqrt(v.sum(-1))[..., None, None]
    x = mag * torch.randn(w, l, f, 2, 2, generator=g) * 0.7
    return (x.to(device=device, dtype=dt), v.to(device=device, dtype=dt),
            r.to(device=device, dtype=dt), EPS)


def reference(x: torch.Tensor, v: torch.Tensor, R: torch.Tensor, eps: float) -> torch.Tensor:
    xc = torch.view_as_complex(x.double().contiguous())                          # [W, L, F, 2]
    rc = torch.view_as_complex(R.double().permute(0, 1, 5, 2, 3, 4).contiguous())  # [W, F, J, 2, 2]
    vd = v.double()                                                              # [W, L, F, J]
    cxx = torch.einsum("wlfj,wfjab->wlfab", vd.to(torch.complex128), rc)
    cxx = cxx + (eps ** 0.5) * torch.eye(2, dtype=torch.complex128)
    z = torch.linalg.solve(cxx, xc[..., None])[..., 0]                          # Cxx^-1 x
    y = vd[..., None].to(torch.complex128) * torch.einsum("wfjab,wlfb->wlfja", rc, z)  # [W, L, F, J, 2]
    y = torch.view_as_real(y).permute(0, 1, 2, 4, 5, 3).contiguous()             # [W, L, F, 2, 2, J]
    return y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    bins = s["W"] * s["L"] * s["F"]
    return {"bytes": bins * (16 + 4 * s["J"] + 16 * s["J"]), "flops": bins * 60 * s["J"]}
