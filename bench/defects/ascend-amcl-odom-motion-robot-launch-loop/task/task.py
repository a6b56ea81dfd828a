"""AMCL odometry motion model (ROS navigation amcl, OdomModel::UpdateAction, ODOM_MODEL_DIFF) for a robot fleet.

A central localisation server runs one AMCL particle set per robot. On every odometry update the node
decomposes each robot's odometry delta into (rot1, trans, rot2) and AMCL's noise standard deviations
    sd_rot1  = sqrt(alpha1 * rot1n^2 + alpha2 * trans^2)
    sd_trans = sqrt(alpha3 * trans^2 + alpha4 * (rot1n^2 + rot2n^2))
    sd_rot2  = sqrt(alpha1 * rot2n^2 + alpha2 * trans^2)
(rot1n / rot2n: the rotations folded so that forward and backward motion are treated alike); these six
numbers per robot are `motion` [R, 6]. Every particle then samples its own noisy motion,
    rot1_hat  = rot1  - sd_rot1  * n0
    trans_hat = trans - sd_trans * n1
    rot2_hat  = rot2  - sd_rot2  * n2
    x += trans_hat * cos(theta + rot1_hat);  y += trans_hat * sin(theta + rot1_hat)
    theta += rot1_hat + rot2_hat                     (AMCL leaves theta unwrapped here)
with n = pf_ran_gaussian draws, given here as standard normals `noise` [3, R, N] so the result is
deterministic. Particle poses are struct-of-arrays planes pose [3, R, N] = (x, y, theta).
Returns the new poses [3, R, N] fp32.
"""
import math

import torch

META = {
    "name": "amcl_odom_motion_fleet",
    "level": 1,
    "category": "robotics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"R": 3, "N": 700},
        "ragged": {"R": 5, "N": 333},
        "large": {"R": 256, "N": 5000},
    },
    "baseline_notes": "One launch of 40 programs (the 910B4's vector cores) looping over (robot, 1024-particle "
                      "block) tiles of the whole fleet: six scalar motion terms per tile, three pose planes "
                      "and three noise planes read contiguously, three planes stored. No autotune.",
    "deterministic": True,
}
ALPHAS = (0.2, 0.2, 0.2, 0.2)  # amcl odom_alpha1..4 defaults


def _fold(a: torch.Tensor) -> torch.Tensor:
    """min(|angle_diff(a, 0)|, |angle_diff(a, pi)|) for a in (-pi, pi]."""
    return torch.minimum(a.abs(), math.pi - a.abs())


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pose [3, R, N], noise [3, R, N], motion [R, 6] = (rot1, trans, rot2, sd_rot1, sd_trans, sd_rot2)."""
    s = META["sizes"][size]
    R, N = s["R"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    centre = torch.rand(R, 2, generator=g) * torch.tensor([120.0, 80.0])     # warehouse floor, metres
    heading = (torch.rand(R, generator=g) * 2.0 - 1.0) * math.pi
    pose = torch.empty(3, R, N)
    pose[0] = centre[:, 0:1] + 0.4 * torch.randn(R, N, generator=g)
    pose[1] = centre[:, 1:2] + 0.4 * torch.randn(R, N, generator=g)
    pose[2] = heading[:, None] + 0.15 * torch.randn(R, N, generator=g)
    noise = torch.randn(3, R, N, generator=g)
    # one odometry step per robot (AMCL updates after update_min_d = 0.25 m or update_min_a = 0.2 rad)
    trans = 0.05 + 0.3 * torch.rand(R, generator=g)
    rot1 = 0.3 * torch.randn(R, generator=g)
    rot2 = 0.2 * torch.randn(R, generator=g)
    a1, a2, a3, a4 = ALPHAS
    r1n, r2n = _fold(rot1), _fold(rot2)
    sd_rot1 = torch.sqrt(a1 * r1n ** 2 + a2 * trans ** 2)
    sd_trans = torch.sqrt(a3 * trans ** 2 + a4 * (r1n ** 2 + r2n ** 2))
    sd_rot2 = torch.sqrt(a1 * r2n ** 2 + a2 * trans ** 2)
    motion = torch.stack([rot1, trans, rot2, sd_rot1, sd_trans, sd_rot2], dim=1)
    return pose.to(dt).to(device), noise.to(dt).to(device), motion.to(dt).to(device)


def reference(pose: torch.Tensor, noise: torch.Tensor, motion: torch.Tensor) -> torch.Tensor:
    p, n, m = pose.double(), noise.double(), motion.double()
    rot1_hat = m[:, 0:1] - m[:, 3:4] * n[0]
    trans_hat = m[:, 1:2] - m[:, 4:5] * n[1]
    rot2_hat = m[:, 2:3] - m[:, 5:6] * n[2]
    heading = p[2] + rot1_hat
    out = torch.stack([p[0] + trans_hat * torch.cos(heading),
                       p[1] + trans_hat * torch.sin(heading),
                       p[2] + rot1_hat + rot2_hat])
    return out.to(pose.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    R, N = s["R"], s["N"]
    return {"bytes": 36 * R * N + 24 * R, "flops": 20 * R * N}
