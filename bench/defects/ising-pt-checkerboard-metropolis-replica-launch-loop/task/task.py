"""One checkerboard Metropolis sweep of R parallel-tempering replicas of the 2D Ising model.

spins [R, L, L] int8 (+-1), periodic boundaries, J = 1, no field. Black sites ((i + j) even) are
updated first from the input lattice, then white sites from the updated black ones. A site with
s * h = 2 flips when u < boltz[r, 0] (= exp(-4 beta_r)), with s * h = 4 when u < boltz[r, 1]
(= exp(-8 beta_r)), with s * h <= 0 always; u = rand[r, i, j] (one uniform per site per sweep).
"""
import torch

META = {
    "name": "ising_checkerboard_sweep_replicas",
    "level": 2,
    "category": "simulation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"R": 3, "L": 32},
        "ragged": {"R": 5, "L": 36},
        "large": {"R": 64, "L": 512},
    },
    "baseline_notes": "Two launches per sweep (black, white), grid (L/32, L/128, R): [32, 128] int8 tiles, "
                      "periodic neighbours by index wrap, Boltzmann factors from the per-replica table; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """spins [R, L, L] int8, rand [R, L, L] uniform, boltz [R, 2] = exp(-4 beta), exp(-8 beta)."""
    s = META["sizes"][size]
    R, L = s["R"], s["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    spins = (torch.randint(0, 2, (R, L, L), generator=g) * 2 - 1).to(torch.int8)
    rand = torch.rand(R, L, L, generator=g)
    beta = torch.linspace(0.30, 0.60, R)
    boltz = torch.stack([torch.exp(-4.0 * beta), torch.exp(-8.0 * beta)], 1)
    return spins.to(device), rand.to(dt).to(device), boltz.to(dt).to(device)


def _half_sweep(s: torch.Tensor, rand: torch.Tensor, boltz: torch.Tensor, color: int) -> torch.Tensor:
    L = s.shape[-1]
    si = s.int()
    h = si.roll(1, 1) + si.roll(-1, 1) + si.roll(1, 2) + si.roll(-1, 2)
    sh = si * h
    p = torch.where(sh == 4, boltz[:, 1, None, None], torch.where(sh == 2, boltz[:, 0, None, None],
                                                                  torch.ones_like(rand)))
    ii = torch.arange(L, device=s.device)
    mine = ((ii[:, None] + ii[None, :]) % 2 == color)[None]
    flip = mine & (rand < p)
    return torch.where(flip, -s, s)


def reference(spins: torch.Tensor, rand: torch.Tensor, boltz: torch.Tensor) -> torch.Tensor:
    s = _half_sweep(spins, rand, boltz, 0)
    return _half_sweep(s, rand, boltz, 1)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["R"] * s["L"] * s["L"]
    return {"bytes": 2 * (n + 4 * n + n), "flops": 2 * 10 * n}
