"""Normal-equation terms of a diagonal complex gain solve (QuartiCal `compute_jhj_jhr`, "diag_complex" term).

Visibilities are a baseline-major cube V, M [n_bl, T, C] (complex, stored as fp32 pairs), baseline b joins
stations p = ant1[b] and q = ant2[b]; gains g [n_tint, N, C] are solved per channel over solution intervals
of t_int timesteps (interval ti = t // t_int). With V_pq ~ g_p M_pq conj(g_q), every sample adds

    z = M conj(g_q):        JHr[ti, p, c] += conj(z) V       JHJ[ti, p, c] += |z|^2
    y = conj(M) conj(g_p):  JHr[ti, q, c] += conj(y) conj(V) JHJ[ti, q, c] += |y|^2

(the q side uses V_qp = conj(V_pq)); the Gauss-Newton / StEFCal update is then JHr / JHJ.
Returns (JHr fp32 [n_tint, N, C, 2], JHJ fp32 [n_tint, N, C]).
"""
import math

import torch

META = {
    "name": "diag_gain_jhj_jhr",
    "level": 2,
    "category": "radio-interferometry",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"ants": 5, "times": 8, "chans": 12, "t_int": 4},
        "ragged": {"ants": 6, "times": 7, "chans": 19, "t_int": 3},
        "large": {"ants": 64, "times": 64, "chans": 512, "t_int": 32},
    },
    "baseline_notes": "Grid (baselines, solution intervals, channel blocks of 64): each program loads its "
                      "baseline's [t_int, 64] tile of V and M (BLOCK_T = next_power_of_2(t_int)) and the "
                      "interval's gains of p and q, forms the four contributions per sample, sums them over "
                      "the interval's timesteps in registers and adds the [64]-channel results into JHr / JHJ "
                      "of p and q with one vector atomic each (6 per program). 4 warps, no autotune.",
    "deterministic": True,
}


def _complex(shape, g, scale=1.0):
    return torch.complex(torch.randn(*shape, generator=g), torch.randn(*shape, generator=g)) * scale


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """vis, model [n_bl, T, C, 2], ant1, ant2 [n_bl] int32, gains [n_tint, N, C, 2] (the current iterate:
    the true gains with 5 % error), t_int (int)."""
    s = META["sizes"][size]
    n_ant, T, C, t_int = s["ants"], s["times"], s["chans"], s["t_int"]
    n_tint = -(-T // t_int)
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    a1, a2 = torch.triu_indices(n_ant, n_ant, offset=1)
    n_bl = a1.shape[0]
    model = _complex((n_bl, T, C), g)
    amp = 1.0 + 0.1 * torch.randn(n_tint, n_ant, C, generator=g)
    g_true = torch.polar(amp.abs(), 2 * math.pi * torch.rand(n_tint, n_ant, C, generator=g))
    ti = torch.arange(T) // t_int
    gp = g_true[ti][:, a1, :].permute(1, 0, 2)          # [n_bl, T, C]
    gq = g_true[ti][:, a2, :].permute(1, 0, 2)
    vis = gp * model * gq.conj() + _complex((n_bl, T, C), g, 0.1)
    gains = g_true * (1.0 + _complex((n_tint, n_ant, C), g, 0.05))
    pairs = lambda z: torch.view_as_real(z).to(device=device, dtype=dt).contiguous()
    return (pairs(vis), pairs(model), a1.to(device=device, dtype=torch.int32),
            a2.to(device=device, dtype=torch.int32), pairs(gains), t_int)


def reference(vis: torch.Tensor, model: torch.Tensor, ant1: torch.Tensor, ant2: torch.Tensor,
              gains: torch.Tensor, t_int: int) -> tuple:
    n_bl, T, C = vis.shape[0], vis.shape[1], vis.shape[2]
    n_tint, n_ant = gains.shape[0], gains.shape[1]
    g = torch.view_as_complex(gains.double().contiguous())
    ti = torch.arange(T, device=vis.device) // t_int
    jhr = torch.zeros(n_tint * n_ant, C, dtype=torch.complex128, device=vis.device)
    jhj = torch.zeros(n_tint * n_ant, C, dtype=torch.float64, device=vis.device)
    for start in range(0, n_bl, 256):
        sl = slice(start, start + 256)
        v = torch.view_as_complex(vis[sl].double().contiguous())
        m = torch.view_as_complex(model[sl].double().contiguous())
        p, q = ant1[sl].long(), ant2[sl].long()
        gp = g[ti][:, p, :].permute(1, 0, 2)
        gq = g[ti][:, q, :].permute(1, 0, 2)
        z = m * gq.conj()
        y = m.conj() * gp.conj()
        key_p = (ti[None, :] * n_ant + p[:, None]).reshape(-1)
        key_q = (ti[None, :] * n_ant + q[:, None]).reshape(-1)
        jhr.index_add_(0, key_p, (z.conj() * v).reshape(-1, C))
        jhr.index_add_(0, key_q, (y.conj() * v.conj()).reshape(-1, C))
        jhj.index_add_(0, key_p, (z.abs() ** 2).reshape(-1, C))
        jhj.index_add_(0, key_q, (y.abs() ** 2).reshape(-1, C))
    jhr = torch.view_as_real(jhr).reshape(n_tint, n_ant, C, 2)
    return jhr.to(vis.dtype), jhj.reshape(n_tint, n_ant, C).to(vis.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_bl = s["ants"] * (s["ants"] - 1) // 2
    samples = n_bl * s["times"] * s["chans"]
    n_tint = -(-s["times"] // s["t_int"])
    return {"bytes": 16 * samples + 8 * n_tint * s["ants"] * s["chans"] * 2, "flops": 40 * samples}
