"""Plane-wave structure factor of Quantum ESPRESSO (Modules/struct_fact.f90, struc_fact).

For every G vector of the dense (charge-density) sphere and every atomic species nt:
    strf[nt, G] = sum_{a : ityp[a] == nt} exp(-i 2 pi (G . tau_a))
with G in units of 2 pi / alat (for a cubic supercell, the Miller indices) and tau in units of alat,
exactly the loop QE runs once per ionic step before building V_loc(G), rho_core(G) and the
pseudo-charge. The G components are kept as three contiguous rows g[3, ngm] (as the GPU ports keep
g_d); the result is returned as two real tensors (Re, Im), each [ntyp, ngm].
Sizes are diamond-structure Si supercells with substitutional dopants (extra species), G vectors
inside the ecutrho sphere sorted by |G| like ggen.
"""
import math

import torch

META = {
    "name": "qe_structure_factor",
    "level": 2,
    "category": "electronic-structure",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        # cells: n x n x n conventional 8-atom Si cells; ecutrho in Ry; dopants: substitutional
        # atoms, each its own species (ntyp = 1 + dopants)
        "small": {"cells": 1, "ecutrho": 40.0, "dopants": 1},
        "ragged": {"cells": 1, "ecutrho": 25.0, "dopants": 2},
        # Si63P: 64-atom 2x2x2 supercell, alat = 20.52 bohr, ecutwfc 20 / ecutrho 80 Ry:
        # ngm = 104,415 G vectors, 64 atoms, 2 species
        "large": {"cells": 2, "ecutrho": 80.0, "dopants": 1},
    },
    "baseline_notes": "One launch of 40 programs (the A2's vector cores); each program loops over "
                      "blocks of 1024 G vectors, loads the three G rows once and runs the loop over "
                      "atoms inside the kernel, adding cos / -sin of the reduced phase into a "
                      "[next_pow2(ntyp), 1024] register accumulator chosen by the atom's species; "
                      "one store per block. No autotune.",
    "deterministic": True,
}

A_SI = 10.26  # bohr, conventional cubic cell of Si
_DIAMOND = torch.tensor([[0, 0, 0], [0, 2, 2], [2, 0, 2], [2, 2, 0],
                         [1, 1, 1], [1, 3, 3], [3, 1, 3], [3, 3, 1]], dtype=torch.float64) / 4.0


def _g_vectors(alat: float, ecutrho: float) -> torch.Tensor:
    """Miller indices m with |m|^2 (2 pi / alat)^2 <= ecutrho, sorted by |m| (ties by index)."""
    gcut = ecutrho / (2.0 * math.pi / alat) ** 2
    r = int(math.floor(math.sqrt(gcut)))
    ax = torch.arange(-r, r + 1, dtype=torch.float64)
    m = torch.stack(torch.meshgrid(ax, ax, ax, indexing="ij"), dim=-1).reshape(-1, 3)
    gg = (m * m).sum(-1)
    keep = gg <= gcut
    m, gg = m[keep], gg[keep]
    order = torch.argsort(gg, stable=True)
    return m[order].t().contiguous()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """g [3, ngm] (2 pi / alat units), tau [nat, 3] (alat units), ityp [nat] int32 (0-based), ntyp."""
    s = META["sizes"][size]
    n, dop = s["cells"], s["dopants"]
    dt = getattr(torch, dtype or META["dtypes"][0])
    gen = torch.Generator().manual_seed(seed)
    alat = n * A_SI
    cells = torch.stack(torch.meshgrid(*(torch.arange(n, dtype=torch.float64),) * 3, indexing="ij"),
                        dim=-1).reshape(-1, 1, 3)
    tau = ((cells + _DIAMOND[None]) / n).reshape(-1, 3)
    tau = tau + 0.004 * torch.randn(tau.shape, generator=gen, dtype=torch.float64)  # relaxed positions
    nat = tau.shape[0]
    ityp = torch.zeros(nat, dtype=torch.int32)
    sites = torch.randperm(nat, generator=gen)[:dop]
    ityp[sites] = torch.arange(1, dop + 1, dtype=torch.int32)
    g = _g_vectors(alat, s["ecutrho"])
    return g.to(device=device, dtype=dt), tau.to(device=device, dtype=dt), ityp.to(device), 1 + dop


def reference(g: torch.Tensor, tau: torch.Tensor, ityp: torch.Tensor, ntyp: int) -> tuple:
    gd, td = g.double(), tau.double()
    ngm = gd.shape[1]
    re = torch.zeros(ntyp, ngm, dtype=torch.float64, device=g.device)
    im = torch.zeros(ntyp, ngm, dtype=torch.float64, device=g.device)
    for start in range(0, ngm, 65536):
        arg = 2.0 * math.pi * (td @ gd[:, start:start + 65536])          # [nat, chunk]
        onehot = torch.nn.functional.one_hot(ityp.long(), ntyp).double().t()  # [ntyp, nat]
        re[:, start:start + 65536] = onehot @ torch.cos(arg)
        im[:, start:start + 65536] = -(onehot @ torch.sin(arg))
    return re.to(g.dtype), im.to(g.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    g, tau, _, ntyp = make_inputs(size)
    ngm, nat = g.shape[1], tau.shape[0]
    return {"bytes": 12 * ngm + 16 * nat + 8 * ntyp * ngm, "flops": 30 * ngm * nat}
