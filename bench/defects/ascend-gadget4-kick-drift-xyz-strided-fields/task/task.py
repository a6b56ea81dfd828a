"""Leapfrog kick + drift of a cosmological N-body step (GADGET-4 KDK integrator, global PM time step).

Particles carry comoving positions pos [N, 3], canonical velocities vel [N, 3] and the accelerations acc [N, 3]
of the force computation just done (GADGET-4's P[i].Pos / P[i].Vel / P[i].GravAccel, array-of-structs x, y, z).
With the cosmological kick and drift factors of the step (kick = int dt / a, drift = int dt / a^2, from the
integration tables), the closing half-kick of this step merged with the opening half-kick of the next is
followed by the drift, and positions wrap into the periodic box [0, L):
    vel' = vel + acc * kick
    pos' = pos + vel' * drift,   pos' -= L * floor(pos' * (1 / L))
Everything is fp32 and evaluated in this order (reference included), so the wrap agrees at the box faces.
Returns (pos' [N, 3], vel' [N, 3]); the inputs are not modified.
"""
import torch

META = {
    "name": "nbody_kick_drift",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 1500, "L": 250.0},
        "ragged": {"N": 2999, "L": 100.0},
        "large": {"N": 16777216, "L": 1000.0},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 2048 contiguous fp32 values of the "
                      "flattened [N * 3] arrays (kick, drift and wrap are the same for x, y and z): three "
                      "contiguous loads and two contiguous stores per block, fp32 throughout; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos uniform in the box (Mpc/h), vel ~ 300 km/s, acc, and the step's kick and drift factors, box side."""
    s = META["sizes"][size]
    n, box = s["N"], s["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pos = torch.rand(n, 3, generator=g) * box
    vel = torch.randn(n, 3, generator=g) * 300.0
    acc = torch.randn(n, 3, generator=g) * 2.0e3
    kick, drift = 0.0125, 0.0021
    return pos.to(dt).to(device), vel.to(dt).to(device), acc.to(dt).to(device), kick, drift, box


def reference(pos: torch.Tensor, vel: torch.Tensor, acc: torch.Tensor, kick: float, drift: float,
              box: float) -> tuple:
    f32 = dict(dtype=torch.float32, device=pos.device)
    k, d = torch.tensor(kick, **f32), torch.tensor(drift, **f32)
    length, inv = torch.tensor(box, **f32), torch.tensor(1.0 / box, **f32)
    v = vel.float() + acc.float() * k
    x = pos.float() + v * d
    x = x - length * torch.floor(x * inv)
    return x.to(pos.dtype), v.to(vel.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 5 * 12 * n, "flops": 8 * 3 * n}
