"""AMCL beam sensor model (ROS navigation amcl, BeamModel::BeamModel) over ray-cast expected ranges.

For every particle i and every laser beam b, expected[i, b] is the range a ray cast through the
occupancy map from particle i's laser pose would measure (precomputed by a batched ray caster, the
range_libc split used by GPU ports of AMCL); obs[b] is the measured range. AMCL's four-part mixture:
    z     = obs[b] - expected[i, b]
    pz    = z_hit * exp(-z^2 / (2 sigma_hit^2))                          (hit, Gaussian)
          + [z < 0] * z_short * lambda_short * exp(-lambda_short * obs[b])  (unexpected short obstacle)
          + [obs[b] == range_max] * z_max                                 (max-range failure)
          + [obs[b] <  range_max] * z_rand / range_max                    (random reading)
    p_i   = 1 + sum_b pz^3                                               (AMCL's ad-hoc cube sum)
    w_new = w_i * p_i                                                    (sample->weight *= p)
Returns w_new [P] fp32 (unnormalised; normalisation is pf_update_sensor's next step).
"""
import torch

META = {
    "name": "amcl_beam_model",
    "level": 2,
    "category": "robotics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"P": 24, "B": 45},
        "ragged": {"P": 37, "B": 181},
        "large": {"P": 16384, "B": 1081},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over tiles of 32 particles; each tile walks "
                      "the scan in chunks of 128 beams as a [32, 128] tile read along the contiguous beam "
                      "axis, evaluates the mixture, cubes it and reduces along the beams; one weight store per "
                      "tile. No autotune.",
    "deterministic": True,
}

# AMCL defaults (laser_z_hit, laser_z_short, laser_z_max, laser_z_rand, laser_sigma_hit,
# laser_lambda_short) and a Hokuyo UTM-30LX (30 m, 1081 beams over 270 degrees).
Z_HIT, Z_SHORT, Z_MAX, Z_RAND = 0.95, 0.1, 0.05, 0.05
SIGMA_HIT, LAMBDA_SHORT, RANGE_MAX = 0.2, 0.1, 30.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """expected [P, B], obs [B], weights [P], then the model's seven scalars."""
    s = META["sizes"][size]
    P, B = s["P"], s["B"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    walls = 0.5 + 24.0 * torch.rand(B, generator=g)
    # particles scattered around the true pose: their rays hit the walls a little early or late
    expected = walls[None, :] + 0.35 * torch.randn(P, B, generator=g) * (1.0 + 0.1 * walls[None, :])
    expected = expected.clamp(0.05, RANGE_MAX)
    expected[torch.rand(P, B, generator=g) < 0.02] = RANGE_MAX          # ray left the map: no hit
    obs = walls + 0.03 * torch.randn(B, generator=g)
    short = torch.rand(B, generator=g) < 0.06                            # people in front of the laser
    obs = torch.where(short, walls * (0.2 + 0.6 * torch.rand(B, generator=g)), obs)
    obs[torch.rand(B, generator=g) < 0.03] = RANGE_MAX                   # no return
    obs = obs.clamp(0.05, RANGE_MAX)
    weights = torch.rand(P, generator=g) + 0.1
    weights = weights / weights.sum()
    return (expected.to(dt).to(device), obs.to(dt).to(device), weights.to(dt).to(device),
            Z_HIT, Z_SHORT, Z_MAX, Z_RAND, SIGMA_HIT, LAMBDA_SHORT, RANGE_MAX)


def reference(expected, obs, weights, z_hit, z_short, z_max, z_rand, sigma_hit, lambda_short, range_max):
    e, r = expected.double(), obs.double()[None, :]
    z = r - e
    pz = z_hit * torch.exp(-(z * z) / (2.0 * sigma_hit * sigma_hit))
    pz = pz + torch.where(z < 0, z_short * lambda_short * torch.exp(-lambda_short * r), torch.zeros_like(z))
    pz = pz + torch.where(r == range_max, z_max, 0.0) + torch.where(r < range_max, z_rand / range_max, 0.0)
    p = 1.0 + (pz * pz * pz).sum(dim=1)
    return (weights.double() * p).to(weights.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    P, B = s["P"], s["B"]
    return {"bytes": 4 * P * B + 4 * B + 8 * P, "flops": 16 * P * B}
