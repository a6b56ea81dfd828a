"""Batched CartPole-v1 step with frame skip (action repeat), TorchRL-style vectorised environment.

Every environment e holds the classic cart-pole state (x, x_dot, theta, theta_dot) of gym's
CartPole-v1 (gravity 9.8, cart mass 1.0, pole mass 0.1, half pole length 0.5, force 10 N, tau
0.02 s, explicit Euler). The policy's action a_e in {0, 1} pushes the cart left or right and is
repeated for `frame_skip` physics steps, the way TorchRL's FrameSkipTransform wraps a batched env:
one environment step of the agent = frame_skip substeps, rewards summed. An environment whose
pole falls (|theta| > 12 deg) or whose cart leaves the track (|x| > 2.4) terminates at that
substep and is not advanced further (the per-env `break` of the frame-skip wrappers); it still
earns the reward 1.0 of its terminating substep, as CartPole-v1 does.

State is kept as four planes of E floats ([4, E]: x, x_dot, theta, theta_dot), the
structure-of-arrays layout of batched physics ports. Returns (next_state [4, E] fp32,
reward [E] fp32 = number of substeps taken, done [E] bool).
"""
import math

import torch

META = {
    "name": "cartpole_frame_skip_step",
    "level": 2,
    "category": "rl-environment",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"E": 256, "frame_skip": 4},
        "ragged": {"E": 1000, "frame_skip": 4},
        "large": {"E": 65536, "frame_skip": 4},
    },
    "baseline_notes": "One launch of 40 programs (the A2's vector cores) looping over blocks of 1024 envs: "
                      "the four state planes and the action are loaded once, all frame_skip Euler substeps "
                      "run on-chip with a per-env alive flag, and state, summed reward and done are stored once.",
    "deterministic": True,
}

GRAVITY = 9.8
MASSCART = 1.0
MASSPOLE = 0.1
TOTAL_MASS = MASSPOLE + MASSCART
LENGTH = 0.5
POLEMASS_LENGTH = MASSPOLE * LENGTH
FORCE_MAG = 10.0
TAU = 0.02
THETA_THRESHOLD = 12 * 2 * math.pi / 360
X_THRESHOLD = 2.4


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """state [4, E] (mid-episode states spread over the track), action [E] int32 in {0, 1}, frame_skip (int)."""
    s = META["sizes"][size]
    E = s["E"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = (torch.rand(E, generator=g) * 2 - 1) * 2.3
    x_dot = torch.randn(E, generator=g) * 1.0
    theta = (torch.rand(E, generator=g) * 2 - 1) * 0.19
    theta_dot = torch.randn(E, generator=g) * 1.5
    state = torch.stack([x, x_dot, theta, theta_dot]).to(dt).contiguous()
    action = torch.randint(0, 2, (E,), generator=g, dtype=torch.int32)
    return state.to(device), action.to(device), s["frame_skip"]


def reference(state: torch.Tensor, action: torch.Tensor, frame_skip: int) -> tuple:
    x, x_dot, theta, theta_dot = (state[i].clone() for i in range(4))
    force = action.to(state.dtype) * (2 * FORCE_MAG) - FORCE_MAG
    alive = torch.ones_like(x, dtype=torch.bool)
    reward = torch.zeros_like(x)
    for _ in range(frame_skip):
        costh, sinth = torch.cos(theta), torch.sin(theta)
        temp = (force + POLEMASS_LENGTH * theta_dot * theta_dot * sinth) / TOTAL_MASS
        thetaacc = (GRAVITY * sinth - costh * temp) / (LENGTH * (4.0 / 3.0 - MASSPOLE * costh * costh / TOTAL_MASS))
        xacc = temp - POLEMASS_LENGTH * thetaacc * costh / TOTAL_MASS
        nx = x + TAU * x_dot
        nxd = x_dot + TAU * xacc
        nth = theta + TAU * theta_dot
        nthd = theta_dot + TAU * thetaacc
        reward = reward + alive.to(reward.dtype)
        term = (nx.abs() > X_THRESHOLD) | (nth.abs() > THETA_THRESHOLD)
        x = torch.where(alive, nx, x)
        x_dot = torch.where(alive, nxd, x_dot)
        theta = torch.where(alive, nth, theta)
        theta_dot = torch.where(alive, nthd, theta_dot)
        alive = alive & ~term
    return torch.stack([x, x_dot, theta, theta_dot]), reward, ~alive


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 41 * s["E"], "flops": 60 * s["E"] * s["frame_skip"]}
