"""Ewald reciprocal-space energy of a batch of periodic structures (torch-pme EwaldCalculator k-space term).

A training batch holds B periodic structures of different sizes, concatenated: atoms of structure b
are columns ptr[b] .. ptr[b+1]-1 of positions [3, N] (Angstrom; the collate function stores the
batch's coordinates component-major, x, y and z rows) and charges [N] (e, neutral per structure).
Each structure has its own cell; recip[b] holds its reciprocal vectors as rows (b_i . a_j = 2 pi delta_ij)
and volume[b] its cell volume. The k-grid is the half space of the Miller triples n in [-kmax, kmax]^3
(n != 0, one of each +-n pair), given as miller [3, K] int32, k = n1 b1 + n2 b2 + n3 b3. Then
    S_b(k) = sum_{j in b} q_j exp(i k . r_j)
    E_b    = ke * (4 pi / V_b) * sum_{k in half space} exp(-|k|^2 / (4 alpha^2)) / |k|^2 * |S_b(k)|^2
with ke = 14.399645 eV A (the +-k pairs give the factor 2 of 2 pi / V). Returns E [B] fp32 (eV).
"""
import math

import torch

META = {
    "name": "ewald_kspace_energy_batch",
    "level": 2,
    "category": "physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 2e-4}},
    "sizes": {
        "small": {"B": 3, "atoms_lo": 5, "atoms_hi": 12, "kmax": 2},
        "ragged": {"B": 5, "atoms_lo": 7, "atoms_hi": 23, "kmax": 3},
        "large": {"B": 128, "atoms_lo": 96, "atoms_hi": 160, "kmax": 4},
    },
    "baseline_notes": "One launch for the whole batch: min(40, B) programs (the 910B4's vector cores) loop "
                      "over structures; per structure 64 k-vectors x 64 atoms tiles: phase, cos, sin, "
                      "charge-weighted sums along the atom axis into S(k), then the Gaussian-damped "
                      "|S|^2 / k^2 sum, one scalar store per structure; no autotune.",
    "deterministic": True,
}
COULOMB = 14.399645
ALPHA = 0.35
DENSITY = 0.08  # atoms per cubic Angstrom


def _miller(kmax: int) -> torch.Tensor:
    r = torch.arange(-kmax, kmax + 1)
    n = torch.cartesian_prod(r, r, r)
    half = (n[:, 0] > 0) | ((n[:, 0] == 0) & (n[:, 1] > 0)) | ((n[:, 0] == 0) & (n[:, 1] == 0) & (n[:, 2] > 0))
    return n[half].T.contiguous()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """positions [3, N], charges [N], ptr [B+1] int32, recip [B, 3, 3], volume [B], miller [3, K] int32, alpha."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    counts = torch.randint(s["atoms_lo"], s["atoms_hi"] + 1, (s["B"],), generator=g)
    pos, q, recip, vol = [], [], [], []
    for n in counts.tolist():
        side = (n / DENSITY) ** (1.0 / 3.0)
        cell = side * (torch.eye(3, dtype=torch.float64)
                       + 0.05 * (torch.rand(3, 3, generator=g, dtype=torch.float64) - 0.5))
        frac = torch.rand(n, 3, generator=g, dtype=torch.float64)
        pos.append(frac @ cell)
        c = torch.randn(n, generator=g, dtype=torch.float64) * 0.6
        q.append(c - c.mean())
        recip.append(2.0 * math.pi * torch.linalg.inv(cell).T)
        vol.append(torch.linalg.det(cell).abs())
    ptr = torch.zeros(s["B"] + 1, dtype=torch.int64)
    ptr[1:] = torch.cumsum(counts, 0)
    return (torch.cat(pos).T.contiguous().to(device=device, dtype=dt), torch.cat(q).to(device=device, dtype=dt),
            ptr.to(device=device, dtype=torch.int32), torch.stack(recip).to(device=device, dtype=dt),
            torch.stack(vol).to(device=device, dtype=dt), _miller(s["kmax"]).to(device=device, dtype=torch.int32),
            ALPHA)


def reference(positions, charges, ptr, recip, volume, miller, alpha):
    out = []
    bounds = ptr.tolist()
    n = miller.double().T
    for b in range(len(bounds) - 1):
        r = positions[:, bounds[b]:bounds[b + 1]].double().T
        q = charges[bounds[b]:bounds[b + 1]].double()
        k = n @ recip[b].double()
        k2 = (k * k).sum(-1)
        phase = k @ r.T
        s2 = (torch.cos(phase) @ q) ** 2 + (torch.sin(phase) @ q) ** 2
        g = torch.exp(-k2 / (4.0 * alpha * alpha)) / k2
        out.append(COULOMB * 4.0 * math.pi / volume[b].double() * (g * s2).sum())
    return torch.stack(out).to(positions.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * (s["atoms_lo"] + s["atoms_hi"]) // 2
    k = ((2 * s["kmax"] + 1) ** 3 - 1) // 2
    return {"bytes": 16 * n + 48 * s["B"] + 12 * k, "flops": 30 * n * k}
