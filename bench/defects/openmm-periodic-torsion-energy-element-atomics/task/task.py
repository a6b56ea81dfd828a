"""OpenMM PeriodicTorsionForce on the GPU (periodicTorsionForce.cu + torsionForce.cu): forces and total energy.

Each entry t of the torsion list holds four atoms (a, b, c, d) and one Fourier term (k, phase, n),
as OpenMM stores them (a proper torsion with three terms is three entries). With the IUPAC dihedral
angle phi of a-b-c-d, the term's energy is k (1 + cos(n phi - phase)); the output is the force on
every atom, F = -dE/dx summed over all terms (fp32), and the total energy (shape [1], accumulated in
fp64 like OpenMM's mixed-precision energy buffer).
"""
import math

import torch

META = {
    "name": "periodic_torsion_forces",
    "level": 2,
    "category": "physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 512, "T": 700},
        "ragged": {"N": 2_001, "T": 3_333},
        "large": {"N": 1_067_095, "T": 1_200_000},
    },
    "baseline_notes": "One program per BLOCK=256 torsion terms (4 warps): int32 atom indices, gathered x/y/z "
                      "of the four atoms, cos/sin(n phi) by the Chebyshev recurrence (n <= 6), OpenMM's force "
                      "projection, 12 fp32 tl.atomic_add into forces [N, 3]; the block's energies are summed "
                      "with tl.sum and added to the fp64 energy with one atomic per program; no autotune.",
    "deterministic": True,
}
CHAIN, BOND, TETRA = 8, 0.153, math.radians(109.5)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos [N, 3] (nm) as 8-atom chains with 0.153 nm bonds and tetrahedral angles; torsions [T, 4] int32
    over consecutive chain atoms, sorted as a topology lists them; coeffs [T, 3] = (k kJ/mol, phase, n)."""
    s = META["sizes"][size]
    N, T = s["N"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    n_chains = -(-N // CHAIN)
    box = (N / 100.0) ** (1.0 / 3.0)
    p = torch.rand(n_chains, 3, generator=g, dtype=torch.float64) * box
    step = torch.nn.functional.normalize(torch.randn(n_chains, 3, generator=g, dtype=torch.float64), dim=1)
    atoms = [p]
    for _ in range(CHAIN - 1):
        p = p + BOND * step
        atoms.append(p)
        r = torch.randn(n_chains, 3, generator=g, dtype=torch.float64)
        perp = torch.nn.functional.normalize(r - (r * step).sum(1, keepdim=True) * step, dim=1)
        step = math.cos(math.pi - TETRA) * step + math.sin(math.pi - TETRA) * perp
    pos = torch.stack(atoms, 1).reshape(-1, 3)[:N]
    starts = torch.arange(n_chains)[:, None] * CHAIN + torch.arange(CHAIN - 3)[None, :]
    starts = starts.reshape(-1)
    starts = starts[starts + 3 < N]
    first = starts[torch.randint(0, starts.numel(), (T,), generator=g)].sort().values
    torsions = (first[:, None] + torch.arange(4)[None, :]).to(torch.int32)
    k = torch.rand(T, generator=g, dtype=torch.float64) * 10.0
    period = torch.randint(1, 7, (T,), generator=g).double()
    phase = torch.where(torch.rand(T, generator=g) < 0.7, torch.zeros(T, dtype=torch.float64),
                        torch.rand(T, generator=g, dtype=torch.float64) * 2 * math.pi)
    coeffs = torch.stack([k, phase, period], 1)
    return pos.to(dt).to(device), torsions.to(device), coeffs.to(dt).to(device)


def reference(pos: torch.Tensor, torsions: torch.Tensor, coeffs: torch.Tensor):
    x = pos.double().detach().requires_grad_(True)
    a, b, c, d = (x[torsions[:, i].long()] for i in range(4))
    b1, b2, b3 = b - a, c - b, d - c
    n1, n2 = torch.linalg.cross(b1, b2), torch.linalg.cross(b2, b3)
    phi = torch.atan2(b2.norm(dim=1) * (b1 * n2).sum(1), (n1 * n2).sum(1))
    k, phase, period = coeffs.double().unbind(1)
    energy = (k * (1.0 + torch.cos(period * phi - phase))).sum()
    (grad,) = torch.autograd.grad(energy, x)
    return (-grad).to(pos.dtype), energy.detach().reshape(1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["T"] * (16 + 12 + 4 * 12 * 2) + 12 * s["N"] + 4, "flops": 150 * s["T"]}
