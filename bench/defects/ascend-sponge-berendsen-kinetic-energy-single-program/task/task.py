"""SPONGE Berendsen thermostat step (MD_INFORMATION Get_Atom_Ek + Sum_Of_List, Berendsen Scale_Velocity), NPU port.

Ek = 1/2 sum_i m_i |v_i|^2 (kcal/mol, SPONGE's internal velocity unit), T = 2 Ek / (3N kB),
lambda = clamp(sqrt(1 + dt/tau (T_ref / T - 1)), 0.8, 1.25), v <- lambda v.
Returns the rescaled velocities and the instantaneous temperature before the rescale.
"""
import torch

META = {
    "name": "sponge_berendsen_rescale",
    "level": 2,
    "category": "molecular-dynamics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 300},
        "ragged": {"N": 2309},
        "large": {"N": 1066628},
    },
    "baseline_notes": "Two launches: a kinetic-energy reduction over [1024, 4] atom tiles (velocity in columns "
                      "0-2, mass broadcast) by min(40, cdiv(N, 1024)) programs, one fp32 partial each; then 40 "
                      "programs that sum the partials, compute T and lambda, and rescale the flat velocities "
                      "in 4096-element tiles; no autotune.",
    "deterministic": True,
}
KB = 0.00198716      # kcal / mol / K
T_REF = 300.0        # K
DT_OVER_TAU = 0.02   # dt = 2 fs, tau = 0.1 ps
MASSES = (1.008, 12.011, 14.007, 15.999, 32.06)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """vel [N, 3] (A per SPONGE time unit, drawn near 310 K), mass [N] (amu)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    kind = torch.multinomial(torch.tensor([0.62, 0.2, 0.05, 0.12, 0.01]), n, replacement=True, generator=g)
    mass = torch.tensor(MASSES)[kind]
    vel = torch.randn(n, 3, generator=g) * torch.sqrt(KB * 310.0 / mass)[:, None]
    return vel.to(device=device, dtype=dt), mass.to(device=device, dtype=dt)


def reference(vel: torch.Tensor, mass: torch.Tensor) -> tuple:
    v = vel.double()
    ek = 0.5 * (mass.double()[:, None] * v * v).sum()
    temp = 2.0 * ek / (vel.numel() * KB)
    lam = torch.sqrt(1.0 + DT_OVER_TAU * (T_REF / temp - 1.0)).clamp(0.8, 1.25)
    return (v * lam).to(vel.dtype), temp.reshape(1).to(vel.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 12 * n + 4 * n + 24 * n + 4, "flops": 10 * n}
