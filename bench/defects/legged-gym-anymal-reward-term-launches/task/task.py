"""Per-environment reward of a legged-locomotion RL task (legged_gym LeggedRobot.compute_reward).

rew = max(0, dt * sum_i scale_i * term_i) over ten terms (only_positive_rewards):
  tracking_lin_vel  exp(-|cmd_xy - v_xy|^2 / sigma)      tracking_ang_vel  exp(-(cmd_yaw - w_z)^2 / sigma)
  lin_vel_z         v_z^2                                 ang_vel_xy        |w_xy|^2
  orientation       |g_xy|^2 (projected gravity)          torques           |tau|^2
  dof_acc           |(qd_last - qd) / dt|^2               action_rate       |a_last - a|^2
  collision         #{penalised bodies with |F| > 0.1}    dof_pos_limits    sum(max(lo - q, 0) + max(q - hi, 0))
"""
import torch

DT = 0.02            # sim dt 0.005 x decimation 4
SIGMA = 0.25         # tracking_sigma
SCALES = {"tracking_lin_vel": 1.0, "tracking_ang_vel": 0.5, "lin_vel_z": -2.0, "ang_vel_xy": -0.05,
          "orientation": -0.2, "torques": -1e-5, "dof_acc": -2.5e-7, "action_rate": -0.01,
          "collision": -1.0, "dof_pos_limits": -10.0}

META = {
    "name": "legged_locomotion_reward",
    "level": 2,
    "category": "simulation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"E": 16},
        "ragged": {"E": 77},
        "large": {"E": 4096},
    },
    "baseline_notes": "One kernel, 128 environments per program, 4 warps: every term computed from [128, 16] (DOF) "
                      "and [128, 8] (penalised body) tiles, summed in registers, clipped and stored once.",
    "deterministic": True,
}

N_DOF, N_BODIES = 12, 17
PENALISED = [2, 3, 6, 7, 10, 11, 14, 15]   # THIGH and SHANK of the four legs (base, then HIP/THIGH/SHANK/FOOT per leg)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """commands [E, 4], base_lin_vel / base_ang_vel / projected_gravity [E, 3], dof_pos / dof_vel /
    last_dof_vel / torques / actions / last_actions [E, 12], contact_forces [E, 17, 3],
    penalised_contact_indices int32 [8], dof_pos_limits [12, 2]."""
    E = META["sizes"][size]["E"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    r = lambda *shape: torch.randn(*shape, generator=g)
    commands = torch.cat([(torch.rand(E, 3, generator=g) * 2 - 1) * torch.tensor([1.0, 1.0, 1.0]),
                          torch.rand(E, 1, generator=g) * 6.28 - 3.14], 1)
    base_lin_vel = commands[:, :3] * torch.tensor([1.0, 1.0, 0.0]) + 0.3 * r(E, 3)
    base_ang_vel = 0.4 * r(E, 3)
    gravity = torch.nn.functional.normalize(torch.tensor([0.0, 0.0, -1.0]) + 0.1 * r(E, 3), dim=1)
    default = torch.tensor([0.0, 0.4, -0.8] * 4)
    dof_pos = default + 0.35 * r(E, N_DOF)
    dof_vel = 2.0 * r(E, N_DOF)
    last_dof_vel = dof_vel + 0.5 * r(E, N_DOF)
    torques = 20.0 * r(E, N_DOF)
    actions = r(E, N_DOF)
    last_actions = actions + 0.3 * r(E, N_DOF)
    touching = torch.rand(E, N_BODIES, 1, generator=g) < 0.05
    contact_forces = torch.where(touching, 50.0 * r(E, N_BODIES, 3), torch.zeros(E, N_BODIES, 3))
    limits = torch.stack([default - 0.9, default + 0.9], 1)
    floats = [commands, base_lin_vel, base_ang_vel, gravity, dof_pos, dof_vel, last_dof_vel, torques, actions,
              last_actions, contact_forces]
    out = [x.to(dt).to(device) for x in floats]
    return (*out, torch.tensor(PENALISED, dtype=torch.int32, device=device), limits.to(dt).to(device))


def reference(commands, base_lin_vel, base_ang_vel, projected_gravity, dof_pos, dof_vel, last_dof_vel, torques,
              actions, last_actions, contact_forces, penalised, dof_pos_limits) -> torch.Tensor:
    d = lambda x: x.double()
    terms = {
        "tracking_lin_vel": torch.exp(-((d(commands[:, :2]) - d(base_lin_vel[:, :2])) ** 2).sum(1) / SIGMA),
        "tracking_ang_vel": torch.exp(-(d(commands[:, 2]) - d(base_ang_vel[:, 2])) ** 2 / SIGMA),
        "lin_vel_z": d(base_lin_vel[:, 2]) ** 2,
        "ang_vel_xy": (d(base_ang_vel[:, :2]) ** 2).sum(1),
        "orientation": (d(projected_gravity[:, :2]) ** 2).sum(1),
        "torques": (d(torques) ** 2).sum(1),
        "dof_acc": (((d(last_dof_vel) - d(dof_vel)) / DT) ** 2).sum(1),
        "action_rate": ((d(last_actions) - d(actions)) ** 2).sum(1),
        "collision": (torch.norm(d(contact_forces[:, penalised.long(), :]), dim=-1) > 0.1).double().sum(1),
        "dof_pos_limits": ((d(dof_pos_limits[:, 0]) - d(dof_pos)).clip(min=0.0)
                           + (d(dof_pos) - d(dof_pos_limits[:, 1])).clip(min=0.0)).sum(1),
    }
    rew = sum(SCALES[k] * DT * v for k, v in terms.items())
    return rew.clip(min=0.0).to(commands.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    E = META["sizes"][size]["E"]
    return {"bytes": 4 * E * (4 + 9 + 6 * N_DOF + 8 * 3 + 1), "flops": 120 * E}
