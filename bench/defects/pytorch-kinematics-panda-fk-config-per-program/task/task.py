"""Batched forward kinematics of a serial revolute chain (pytorch_kinematics SerialChain.forward_kinematics).

For every joint configuration q[e] the world frame of link j is
  T_j = T_{j-1} @ Origin_j @ Rot(axis_j, q[e, j]),   T_{-1} = identity,
with Origin_j the fixed parent-to-joint transform of the URDF and Rot the axis-angle (Rodrigues)
rotation. Output: the 3x4 [R | t] of every link frame, [E, J, 3, 4].
Chain: Franka Emika Panda (franka_description panda_arm.urdf, joints 1-7).
"""
import math

import torch

META = {
    "name": "serial_chain_forward_kinematics",
    "level": 2,
    "category": "simulation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"E": 5},
        "ragged": {"E": 37},
        "large": {"E": 65536},
    },
    "baseline_notes": "128 configurations per program (one per lane), 4 warps; the 7 joints unrolled, "
                      "origin and axis of each joint loaded once per program as scalars; 12 stores per link frame.",
    "deterministic": True,
}

# (xyz, rpy) of panda_joint1..7, axis z for all
PANDA_JOINTS = [
    ((0.0, 0.0, 0.333), (0.0, 0.0, 0.0)),
    ((0.0, 0.0, 0.0), (-math.pi / 2, 0.0, 0.0)),
    ((0.0, -0.316, 0.0), (math.pi / 2, 0.0, 0.0)),
    ((0.0825, 0.0, 0.0), (math.pi / 2, 0.0, 0.0)),
    ((-0.0825, 0.384, 0.0), (-math.pi / 2, 0.0, 0.0)),
    ((0.0, 0.0, 0.0), (math.pi / 2, 0.0, 0.0)),
    ((0.088, 0.0, 0.0), (math.pi / 2, 0.0, 0.0)),
]
Q_LOW = [-2.8973, -1.7628, -2.8973, -3.0718, -2.8973, -0.0175, -2.8973]
Q_HIGH = [2.8973, 1.7628, 2.8973, -0.0698, 2.8973, 3.7525, 2.8973]


def _rpy(r: float, p: float, y: float) -> torch.Tensor:
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    rx = torch.tensor([[1, 0, 0], [0, cr, -sr], [0, sr, cr]], dtype=torch.float64)
    ry = torch.tensor([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]], dtype=torch.float64)
    rz = torch.tensor([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]], dtype=torch.float64)
    return rz @ ry @ rx


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [E, 7] joint angles inside the Panda limits, origins [7, 3, 4] ([R | t] of each joint origin),
    axes [7, 3] unit joint axes."""
    E = META["sizes"][size]["E"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lo, hi = torch.tensor(Q_LOW), torch.tensor(Q_HIGH)
    q = lo + (hi - lo) * torch.rand(E, len(Q_LOW), generator=g)
    origins = torch.stack([torch.cat([_rpy(*rpy), torch.tensor(xyz, dtype=torch.float64)[:, None]], 1)
                           for xyz, rpy in PANDA_JOINTS])
    axes = torch.tensor([[0.0, 0.0, 1.0]] * len(PANDA_JOINTS))
    return q.to(dt).to(device), origins.to(dt).to(device), axes.to(dt).to(device)


def reference(q: torch.Tensor, origins: torch.Tensor, axes: torch.Tensor) -> torch.Tensor:
    E, J = q.shape
    qd, o, a = q.double(), origins.double(), axes.double()
    c, s = torch.cos(qd), torch.sin(qd)
    v = 1.0 - c
    x, y, z = a[:, 0], a[:, 1], a[:, 2]
    rq = torch.stack([c + x * x * v, x * y * v - z * s, x * z * v + y * s,
                      y * x * v + z * s, c + y * y * v, y * z * v - x * s,
                      z * x * v - y * s, z * y * v + x * s, c + z * z * v], -1).reshape(E, J, 3, 3)
    rot = torch.eye(3, dtype=torch.float64, device=q.device).expand(E, 3, 3)
    pos = torch.zeros(E, 3, dtype=torch.float64, device=q.device)
    frames = []
    for j in range(J):
        pos = rot @ o[j, :, 3] + pos
        rot = rot @ o[j, :, :3] @ rq[:, j]
        frames.append(torch.cat([rot, pos[:, :, None]], 2))
    return torch.stack(frames, 1).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    E = META["sizes"][size]["E"]
    return {"bytes": 4 * E * 7 + 4 * E * 7 * 12 + 4 * 7 * 15, "flops": 110 * E * 7}
