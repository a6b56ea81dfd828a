"""On-manifold IMU preintegration over keyframe intervals (GTSAM PreintegratedImuMeasurements, Forster et al.).

GTSAM's `ManifoldPreintegration::update` (Forster, Carlone, Dellaert, Scaramuzza, TRO 2017, eq. 33)
integrates each IMU sample (gyro w_k, accelerometer a_k, interval dt_k) of a keyframe interval,
with the interval's bias estimate (b_g, b_a) subtracted, into the preintegrated deltas:

    a   = a_k - b_a,  phi = (w_k - b_g) dt_k
    dp <- dp + dv dt_k + 1/2 dR a dt_k^2
    dv <- dv + dR a dt_k
    dR <- dR Exp(phi),   Exp(phi) = I + sin(t)/t [phi]x + (1 - cos t)/t^2 [phi]x^2,  t = |phi|

starting from dR = I, dv = dp = 0 (gravity is not in the deltas). Here a batch of B intervals of T
samples each is preintegrated at once (one interval per row). Returns (dR [B, 3, 3], dv [B, 3],
dp [B, 3]), float32.
"""
import math

import torch

META = {
    "name": "imu_preintegration",
    "level": 2,
    "category": "robotics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"windows": 6, "samples": 12},
        "ragged": {"windows": 37, "samples": 21},
        "large": {"windows": 4096, "samples": 200},
    },
    "baseline_notes": "1-D grid over blocks of 32 intervals (1 warp); each lane keeps its interval's dR, dv, "
                      "dp in registers and loops over the T samples in one launch, then stores the deltas "
                      "once. No autotune.",
    "deterministic": True,
}
RATE_HZ = 200.0          # EuRoC MAV ADIS16448
GRAVITY = 9.81


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """gyro [B, T, 3] (rad/s), acc [B, T, 3] (m/s^2), dt [B, T] (s), bias [B, 6] (b_g then b_a)."""
    s = META["sizes"][size]
    b, t = s["windows"], s["samples"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f64 = torch.float64
    time = torch.arange(t, dtype=f64)[None, :, None] / RATE_HZ
    # smooth body rates (hand-held / MAV motion) plus white noise
    w0 = 0.4 * torch.randn(b, 1, 3, generator=g, dtype=f64)
    w1 = 0.8 * torch.randn(b, 1, 3, generator=g, dtype=f64)
    f = 0.3 + 1.5 * torch.rand(b, 1, 3, generator=g, dtype=f64)
    ph = 2 * math.pi * torch.rand(b, 1, 3, generator=g, dtype=f64)
    gyro = w0 + w1 * torch.sin(2 * math.pi * f * time + ph) + 2.4e-3 * torch.randn(b, t, 3, generator=g, dtype=f64)
    # specific force: gravity seen from a tilted body plus some linear acceleration
    tilt = 0.3 * torch.randn(b, 1, 2, generator=g, dtype=f64)
    grav = torch.cat([GRAVITY * torch.sin(tilt[..., :1]), GRAVITY * torch.sin(tilt[..., 1:]),
                      GRAVITY * torch.cos(tilt[..., :1]) * torch.cos(tilt[..., 1:])], dim=-1)
    a1 = 1.5 * torch.randn(b, 1, 3, generator=g, dtype=f64)
    acc = grav + a1 * torch.cos(2 * math.pi * f * time) + 0.02 * torch.randn(b, t, 3, generator=g, dtype=f64)
    dts = 1.0 / RATE_HZ + 2e-6 * torch.randn(b, t, generator=g, dtype=f64)
    bias = torch.cat([0.01 * torch.randn(b, 3, generator=g, dtype=f64),
                      0.05 * torch.randn(b, 3, generator=g, dtype=f64)], dim=-1)
    return tuple(x.to(device=device, dtype=dt) for x in (gyro, acc, dts, bias))


def _hat(v: torch.Tensor) -> torch.Tensor:
    x, y, z = v.unbind(-1)
    o = torch.zeros_like(x)
    return torch.stack([o, -z, y, z, o, -x, -y, x, o], dim=-1).reshape(*v.shape[:-1], 3, 3)


def reference(gyro: torch.Tensor, acc: torch.Tensor, dts: torch.Tensor, bias: torch.Tensor) -> tuple:
    w, a, d, bb = gyro.double(), acc.double(), dts.double(), bias.double()
    n, steps = w.shape[0], w.shape[1]
    R = torch.eye(3, dtype=torch.float64, device=w.device).expand(n, 3, 3).clone()
    v = torch.zeros(n, 3, dtype=torch.float64, device=w.device)
    p = torch.zeros_like(v)
    eye = torch.eye(3, dtype=torch.float64, device=w.device)
    for k in range(steps):
        dt = d[:, k, None]
        ak = a[:, k] - bb[:, 3:]
        Ra = (R @ ak[:, :, None])[:, :, 0]
        p = p + v * dt + 0.5 * Ra * dt * dt
        v = v + Ra * dt
        phi = (w[:, k] - bb[:, :3]) * dt
        th = phi.norm(dim=-1)[:, None, None]
        W = _hat(phi)
        E = eye + torch.sin(th) / th * W + (1 - torch.cos(th)) / (th * th) * (W @ W)
        R = R @ E
    return R.to(gyro.dtype), v.to(gyro.dtype), p.to(gyro.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    b, t = s["windows"], s["samples"]
    return {"bytes": b * t * 28 + b * 24 + b * 60, "flops": b * t * 110}
