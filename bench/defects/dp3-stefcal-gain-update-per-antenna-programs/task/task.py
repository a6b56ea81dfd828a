"""One StEFCal iteration of a scalar (diagonal) complex gain solve (DP3 gaincal, Salvini & Wijnholds 2014).

Per solution interval t (here one timeslot x channel) the observed and model visibility matrices R_t and
M_t (N x N stations, Hermitian, autocorrelations on the diagonal) are related by R ~ G M G^H, G = diag(g).
With the other gains fixed, station p's least-squares gain is

    z_q = M_pq conj(g_q),    g_p' = sum_{q != p} conj(z_q) R_pq / sum_{q != p} |z_q|^2

and StEFCal's even iterations average the update with the previous estimate: g_next = (g' + g) / 2.
Autocorrelations (q == p) are excluded. Complex numbers are stored as trailing (real, imaginary) pairs:
R, M fp32 [T, N, N, 2], g fp32 [T, N, 2]; returns g_next fp32 [T, N, 2].
"""
import math

import torch

META = {
    "name": "stefcal_gain_update",
    "level": 2,
    "category": "radio-interferometry",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"intervals": 6, "stations": 8},
        "ragged": {"intervals": 5, "stations": 13},
        "large": {"intervals": 4096, "stations": 62},
    },
    "baseline_notes": "Grid (stations, interval chunks of 16): each program owns one station p and walks its "
                      "16 intervals; per interval it loads row p of R and M (contiguous, BLOCK_N = "
                      "next_power_of_2(N) lanes, autocorrelation masked) and the interval's gains, forms "
                      "z = M_pq conj(g_q), reduces numerator and |z|^2 along the row and stores the averaged "
                      "gain. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """R [T, N, N, 2] = G M G^H + noise (with autocorrelations), model M [T, N, N, 2], gains g [T, N, 2]
    (the previous iterate: the true gains with 5 % error)."""
    s = META["sizes"][size]
    T, N = s["intervals"], s["stations"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # model: a few point sources seen on random station positions (Hermitian by construction)
    pos = torch.randn(N, 2, generator=g, dtype=torch.float64) * 3.0
    src = torch.randn(T, 4, 2, generator=g, dtype=torch.float64) * 0.3
    flux = 0.2 + torch.rand(T, 4, generator=g, dtype=torch.float64)
    base = pos[:, None, :] - pos[None, :, :]                                   # [N, N, 2]
    phase = 2 * math.pi * torch.einsum("pqk,tsk->tspq", base, src)            # [T, 4, N, N]
    model = (flux[:, :, None, None] * torch.polar(torch.ones_like(phase), phase)).sum(1)
    amp = 1.0 + 0.2 * torch.randn(T, N, generator=g, dtype=torch.float64)
    gain_true = torch.polar(amp.abs(), 2 * math.pi * torch.rand(T, N, generator=g, dtype=torch.float64))
    noise = torch.complex(torch.randn(T, N, N, generator=g, dtype=torch.float64),
                          torch.randn(T, N, N, generator=g, dtype=torch.float64)) * 0.05
    noise = (noise + noise.conj().transpose(1, 2)) / 2
    obs = gain_true[:, :, None] * model * gain_true.conj()[:, None, :] + noise
    err = torch.complex(torch.randn(T, N, generator=g, dtype=torch.float64),
                        torch.randn(T, N, generator=g, dtype=torch.float64)) * 0.05
    gain = gain_true * (1.0 + err)
    as_pairs = lambda z: torch.view_as_real(z).to(device=device, dtype=dt).contiguous()
    return as_pairs(obs), as_pairs(model), as_pairs(gain)


def reference(R: torch.Tensor, M: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    r = torch.view_as_complex(R.double().contiguous())
    m = torch.view_as_complex(M.double().contiguous())
    gain = torch.view_as_complex(g.double().contiguous())
    n = gain.shape[1]
    off = ~torch.eye(n, dtype=torch.bool, device=R.device)
    z = m * gain.conj()[:, None, :]                                            # z[t, p, q] = M_pq conj(g_q)
    num = (z.conj() * r * off).sum(-1)
    den = (z.abs() ** 2 * off).sum(-1)
    g_next = 0.5 * (num / den + gain)
    return torch.view_as_real(g_next).to(R.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, N = s["intervals"], s["stations"]
    return {"bytes": 16 * T * N * N + 16 * T * N, "flops": 14 * T * N * N}
