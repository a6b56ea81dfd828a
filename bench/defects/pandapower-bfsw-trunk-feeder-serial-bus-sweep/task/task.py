"""One backward/forward sweep of a radial distribution power flow (pandapower bfswpf / Teng's
BIBC-BCBV method, GridLAB-D FBS) on a feeder trunk, batched over time-series load snapshots.

Bus k (k = 0..N-1) is fed from bus k-1 through section k (impedance r[k] + j x[k]); bus -1 is the
substation at V0 = 1 + 0j. With the current voltage iterate V and the constant-power loads S = p + jq:
  load current   I_k = conj(S_k / V_k)
  backward sweep J_k = sum_{j >= k} I_j                (current through section k)
  forward sweep  V'_k = V0 - sum_{m <= k} Z_m J_m
The output is the new voltage iterate, out[0] = Re V', out[1] = Im V'.
"""
import torch

META = {
    "name": "feeder_bfs_sweep",
    "level": 2,
    "category": "simulation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 4, "N": 40},
        "ragged": {"T": 5, "N": 77},
        "large": {"T": 8760, "N": 1024},
    },
    "baseline_notes": "One program per snapshot, BLOCK = next_power_of_2(N): loads the snapshot's loads and "
                      "voltages as vectors, load currents, reverse tl.cumsum for the section currents, "
                      "tl.cumsum of the Z*J drops, one store per plane; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """p, q [T, N] (per-unit load), vr, vi [T, N] (voltage iterate), r, x [N] (section impedance, p.u.)."""
    s = META["sizes"][size]
    T, N = s["T"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    base_p = torch.rand(N, generator=g) * 2.0 / N
    profile = 0.4 + 0.6 * torch.rand(T, 1, generator=g)
    p = base_p[None, :] * profile * (0.8 + 0.4 * torch.rand(T, N, generator=g))
    q = p * (0.2 + 0.3 * torch.rand(T, N, generator=g))
    depth = torch.arange(1, N + 1).float() / N
    vr = 1.0 - 0.06 * depth[None, :] * profile + 0.002 * torch.randn(T, N, generator=g)
    vi = -0.02 * depth[None, :] * profile + 0.002 * torch.randn(T, N, generator=g)
    r = (0.05 + 0.10 * torch.rand(N, generator=g)) / N
    x = r * (1.0 + 2.0 * torch.rand(N, generator=g))
    return tuple(t.to(dt).contiguous().to(device) for t in (p, q, vr, vi, r, x))


def reference(p, q, vr, vi, r, x) -> torch.Tensor:
    V = torch.complex(vr.double(), vi.double())
    S = torch.complex(p.double(), q.double())
    Z = torch.complex(r.double(), x.double())
    I = torch.conj(S / V)
    J = torch.flip(torch.cumsum(torch.flip(I, [1]), 1), [1])
    Vn = 1.0 - torch.cumsum(Z[None, :] * J, 1)
    return torch.stack((Vn.real, Vn.imag)).to(p.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, N = s["T"], s["N"]
    return {"bytes": 24 * T * N + 8 * N, "flops": 20 * T * N}
