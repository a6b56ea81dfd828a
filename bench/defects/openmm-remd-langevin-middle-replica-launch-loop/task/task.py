"""One LangevinMiddleIntegrator step (OpenMM langevinMiddle.cu, no constraints) for every replica of a
temperature replica-exchange run: each replica r has its own temperature T_r, all share the topology.

    v' = v + dt * f / m                      (kick)
    x' = x + dt/2 * v'                       (half drift)
    v'' = a * v' + sqrt(kB T_r (1 - a^2) / m) * xi,   a = exp(-gamma dt)   (thermostat)
    x'' = x' + dt/2 * v''                    (half drift)

xi are the standard normal draws that OpenMM keeps in its pre-generated random buffer.
"""
import math

import torch

META = {
    "name": "remd_langevin_middle_step",
    "level": 2,
    "category": "physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"R": 4, "N": 300},
        "ragged": {"R": 5, "N": 1_111},
        "large": {"R": 64, "N": 23_558},
    },
    "baseline_notes": "Flat elementwise kernel over the x/y/z components, BLOCK=1024, 2-D grid (component "
                      "block, replica): loads x, v, f, xi and 1/m (atom = offset // 3), the replica's "
                      "temperature from a device tensor, stores new x and v; no autotune.",
    "deterministic": True,
}
DT, FRICTION, KB = 0.002, 1.0, 0.008314462618  # ps, 1/ps, kJ/mol/K


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos, vel, force, noise [R, N, 3]; inv_mass [N]; temperature [R] (a geometric 300-450 K ladder)."""
    s = META["sizes"][size]
    R, N = s["R"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    mass = torch.tensor([1.008, 12.011, 14.007, 15.999, 32.06])[torch.randint(0, 5, (N,), generator=g)]
    pos = torch.rand(R, N, 3, generator=g) * 6.2
    vel = torch.randn(R, N, 3, generator=g) * torch.sqrt(KB * 300.0 / mass)[None, :, None]
    force = torch.randn(R, N, 3, generator=g) * 800.0
    noise = torch.randn(R, N, 3, generator=g)
    temperature = 300.0 * (1.5 ** (torch.arange(R, dtype=torch.float64) / max(R - 1, 1)))
    return tuple(t.to(dt).to(device) for t in (pos, vel, force, 1.0 / mass, noise, temperature))


def reference(pos, vel, force, inv_mass, noise, temperature):
    invm = inv_mass.double()[None, :, None]
    a = math.exp(-FRICTION * DT)
    noise_scale = torch.sqrt(KB * temperature.double() * (1.0 - a * a))[:, None, None]
    v = vel.double() + DT * force.double() * invm
    x = pos.double() + 0.5 * DT * v
    v = a * v + noise_scale * torch.sqrt(invm) * noise.double()
    x = x + 0.5 * DT * v
    return x.to(pos.dtype), v.to(vel.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["R"] * s["N"] * 3
    return {"bytes": 6 * 4 * n + 4 * s["N"] + 4 * s["R"], "flops": 12 * n}
