"""Constrained-transport update of the face-centred magnetic field (Athena++ field/ct.cpp, Field::CT).

With the corner-integrated edge EMFs e1, e2, e3 (on cell edges along x1, x2, x3) the face fields are advanced
by the discrete Stokes theorem, which keeps div B = 0 to round-off. On a uniform Cartesian mesh of K x J x I
cells (k, j, i; i fastest), with the staggered array shapes of AthenaK's face / edge fields
    b1 [K, J, I+1]  b2 [K, J+1, I]  b3 [K+1, J, I]      e1 [K+1, J+1, I]  e2 [K+1, J, I+1]  e3 [K, J+1, I+1]
every face is updated (dt is the stage's weighted time step):
    b1 -= dt ((e3[k, j+1, i] - e3[k, j, i]) / dx2 - (e2[k+1, j, i] - e2[k, j, i]) / dx3)
    b2 += dt ((e3[k, j, i+1] - e3[k, j, i]) / dx1 - (e1[k+1, j, i] - e1[k, j, i]) / dx3)
    b3 -= dt ((e2[k, j, i+1] - e2[k, j, i]) / dx1 - (e1[k, j+1, i] - e1[k, j, i]) / dx2)
Returns the new (b1, b2, b3).
"""
import torch

META = {
    "name": "ct_face_field_update",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"K": 3, "J": 4, "I": 8},
        "ragged": {"K": 3, "J": 5, "I": 7},
        "large": {"K": 256, "J": 256, "I": 256},
    },
    "baseline_notes": "One generic launch per field component (3 in all); each launch has 40 programs (the A2's "
                      "vector cores) loop over (k, block of x2 rows) units of the face array, load [BJ, BI] tiles "
                      "(BI = next_power_of_2 of the row length, BJ * BI = 2048) of the face field and of the two "
                      "edge fields at the unit and its shifted neighbour, contiguous along i, and store the "
                      "updated tile; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """b1, b2, b3, e1, e2, e3 (staggered shapes above), dt, dx1, dx2, dx3."""
    s = META["sizes"][size]
    K, J, I = s["K"], s["J"], s["I"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shapes = [(K, J, I + 1), (K, J + 1, I), (K + 1, J, I),
              (K + 1, J + 1, I), (K + 1, J, I + 1), (K, J + 1, I + 1)]
    arrays = [torch.randn(sh, generator=g) for sh in shapes]
    dx1, dx2, dx3 = 1.0 / I, 1.0 / J, 1.0 / K
    cfl_dt = 0.3 * min(dx1, dx2, dx3)
    return tuple(a.to(dt).to(device) for a in arrays) + (cfl_dt, dx1, dx2, dx3)


def reference(b1, b2, b3, e1, e2, e3, dt, dx1, dx2, dx3) -> tuple:
    B1, B2, B3, E1, E2, E3 = (a.double() for a in (b1, b2, b3, e1, e2, e3))
    n1 = B1 - dt * ((E3[:, 1:, :] - E3[:, :-1, :]) / dx2 - (E2[1:] - E2[:-1]) / dx3)
    n2 = B2 + dt * ((E3[:, :, 1:] - E3[:, :, :-1]) / dx1 - (E1[1:] - E1[:-1]) / dx3)
    n3 = B3 - dt * ((E2[:, :, 1:] - E2[:, :, :-1]) / dx1 - (E1[:, 1:, :] - E1[:, :-1, :]) / dx2)
    return n1.to(b1.dtype), n2.to(b2.dtype), n3.to(b3.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    K, J, I = s["K"], s["J"], s["I"]
    faces = K * J * (I + 1) + K * (J + 1) * I + (K + 1) * J * I
    edges = (K + 1) * (J + 1) * I + (K + 1) * J * (I + 1) + K * (J + 1) * (I + 1)
    return {"bytes": 4 * (2 * faces + 2 * edges), "flops": 6 * faces}
