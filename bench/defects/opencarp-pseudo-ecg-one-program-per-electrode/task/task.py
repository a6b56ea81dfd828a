"""Pseudo-ECG by phi_e recovery (openCARP phie_recovery / the pseudo-bidomain lead signals).

Every mesh node n of the heart carries its volume-weighted transmembrane current source I_m[n]
(openCARP forms it from the intracellular stiffness applied to Vm). The extracellular potential at
a recovery point x_e in an unbounded conductor of conductivity sigma_b is

    phi_e = 1 / (4 pi sigma_b) * sum_n I_m[n] / |x_e - x_n|

evaluated at the nine electrodes of the standard 12-lead ECG (RA, LA, LL, V1..V6), from which the
leads are formed: I = LA - RA, II = LL - RA, III = LL - LA, aVR = RA - (LA + LL)/2,
aVL = LA - (RA + LL)/2, aVF = LL - (RA + LA)/2, Vk = phi_Vk - WCT with WCT = (RA + LA + LL)/3.
Node coordinates are kept as three planes pts [3, N] (x, y, z in mm). Returns (phi [9], leads [12]).
"""
import math

import torch

META = {
    "name": "pseudo_ecg_phie_recovery",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 3000},
        "ragged": {"N": 4999},
        "large": {"N": 4_000_000},
    },
    "baseline_notes": "Grid (9 electrodes, 128 node chunks): each program sums I_m / r over its chunk in "
                      "1024-node blocks (rsqrt) and writes one partial; a one-program kernel adds the 128 "
                      "partials per electrode, scales by 1/(4 pi sigma_b) and forms the 12 leads. 4 warps.",
    "deterministic": True,
}

# torso electrode positions (mm), heart centred near the origin: RA, LA, LL, V1..V6
ELECTRODES = [
    [-160.0, 110.0, 40.0], [160.0, 110.0, 40.0], [90.0, -330.0, 20.0],
    [-20.0, 30.0, 110.0], [25.0, 30.0, 112.0], [45.0, 5.0, 115.0],
    [70.0, -20.0, 105.0], [105.0, -25.0, 80.0], [135.0, -25.0, 30.0],
]
SIGMA_B = 0.7  # S/m, bath / torso conductivity


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """I_m [N], pts [3, N] (ventricular shell nodes), electrodes [9, 3] and sigma_b."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    # nodes in a truncated prolate-ellipsoid shell (LV-like: 50 mm long axis, 28 mm radius, 10 mm wall)
    theta = torch.acos(1.0 - 1.6 * torch.rand(n, generator=g))      # apex (theta = 0) to base
    phi = 2.0 * math.pi * torch.rand(n, generator=g)
    depth = torch.rand(n, generator=g)
    scale = 1.0 - 0.35 * depth
    x = 28.0 * scale * torch.sin(theta) * torch.cos(phi)
    y = -50.0 * scale * torch.cos(theta)
    z = 28.0 * scale * torch.sin(theta) * torch.sin(phi)
    pts = torch.stack([x, y, z])
    # an activation wavefront travelling from the apex: sources are the derivative of a Gaussian
    # around the front, endo first (depth) -> a nearly zero-sum current distribution
    t_act = 0.9 * theta + 0.3 * (1.0 - depth)
    s = (0.8 + 0.1 * torch.rand(1, generator=g) - t_act) / 0.08
    im = -s * torch.exp(-0.5 * s * s) + 0.05 * torch.randn(n, generator=g)
    im = im - im.mean()  # the sources of a closed heart add up to zero
    elec = torch.tensor(ELECTRODES)
    return im.to(dt_).to(device), pts.to(dt_).contiguous().to(device), elec.to(dt_).to(device), SIGMA_B


def reference(im: torch.Tensor, pts: torch.Tensor, elec: torch.Tensor, sigma_b: float) -> tuple:
    src, p, el = im.double(), pts.double(), elec.double()
    phi = torch.stack([(src / torch.sqrt(((p - x[:, None]) ** 2).sum(0))).sum() for x in el])
    phi = phi / (4.0 * math.pi * sigma_b)
    ra, la, ll = phi[0], phi[1], phi[2]
    wct = (ra + la + ll) / 3.0
    limb = torch.stack([la - ra, ll - ra, ll - la, ra - 0.5 * (la + ll), la - 0.5 * (ra + ll), ll - 0.5 * (ra + la)])
    leads = torch.cat([limb, phi[3:] - wct])
    return phi.to(im.dtype), leads.to(im.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 16 * n, "flops": 9 * 10 * n}
