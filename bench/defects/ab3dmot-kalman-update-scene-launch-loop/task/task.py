"""AB3DMOT 3-D multi-object tracking Kalman step (predict, then update where a detection was matched), batched over scenes.

State per track (AB3DMOT model/kalman_filter.py): [x, y, z, theta, l, w, h, vx, vy, vz], constant-velocity
F (position += dt * velocity), H = [I7 | 0], Q = I with Q[7:, 7:] = 0.01, R = I. With diagonal P0, Q and R
the covariance stays block-diagonal, so each track stores only its 13 distinct entries:
P[:, 3*i : 3*i+3] = (var(pos_i), cov(pos_i, vel_i), var(vel_i)) for i = x, y, z, and P[:, 9 + j] = var of
theta, l, w, h. Tracks of a scene are contiguous: track_scene is the PyG-style batch vector and
scene_ptr the matching CSR offsets; scene_dt is the frame interval of each scene.
"""
import torch

META = {
    "name": "ab3dmot_kalman_step",
    "level": 2,
    "category": "tracking",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"S": 4, "T_MIN": 0, "T_MAX": 40},
        "ragged": {"S": 5, "T_MIN": 3, "T_MAX": 77},
        "large": {"S": 512, "T_MIN": 32, "T_MAX": 128},
    },
    "baseline_notes": "One launch over all tracks, 128 tracks per program: loads the track's state, compact covariance "
                      "and detection as strided columns, reads its scene's dt through the batch vector, predicts, "
                      "applies the scalar-innovation update per observed axis where matched, stores state and "
                      "covariance; 4 warps, no autotune.",
    "deterministic": True,
}

Q_POS, Q_VEL, R_MEAS = 1.0, 0.01, 1.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N,10], P [N,13], z [N,7], matched [N] int32, track_scene [N] int32, scene_ptr [S+1] int32, scene_dt [S]."""
    s = META["sizes"][size]
    S = s["S"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    counts = torch.randint(s["T_MIN"], s["T_MAX"] + 1, (S,), generator=g)
    counts[0] = s["T_MAX"]
    N = int(counts.sum())
    ptr = torch.zeros(S + 1, dtype=torch.int64)
    ptr[1:] = torch.cumsum(counts, 0)
    track_scene = torch.repeat_interleave(torch.arange(S), counts)
    scene_dt = torch.where(torch.rand(S, generator=g) < 0.5, 0.1, 0.5)  # Waymo 10 Hz / nuScenes keyframes
    x = torch.cat([torch.randn(N, 3, generator=g) * 30.0, (torch.rand(N, 1, generator=g) * 2 - 1) * 3.14,
                   torch.rand(N, 3, generator=g) * 4 + 0.5, torch.randn(N, 3, generator=g) * 5.0], 1)
    var_p = torch.rand(N, 3, generator=g) * 20 + 0.5
    var_v = torch.rand(N, 3, generator=g) * 100 + 0.5
    rho = (torch.rand(N, 3, generator=g) * 2 - 1) * 0.9
    blocks = torch.stack([var_p, rho * (var_p * var_v).sqrt(), var_v], 2).reshape(N, 9)
    P = torch.cat([blocks, torch.rand(N, 4, generator=g) * 10 + 0.1], 1)
    z = x[:, :7] + torch.randn(N, 7, generator=g) * 1.5
    matched = (torch.rand(N, generator=g) < 0.7).to(torch.int32)
    return (x.to(dt).to(device), P.to(dt).to(device), z.to(dt).to(device), matched.to(device),
            track_scene.to(torch.int32).to(device), ptr.to(torch.int32).to(device), scene_dt.to(dt).to(device))


def _full_cov(P: torch.Tensor) -> torch.Tensor:
    N = P.shape[0]
    M = torch.zeros(N, 10, 10, dtype=P.dtype, device=P.device)
    for i in range(3):
        M[:, i, i], M[:, i, 7 + i], M[:, 7 + i, i], M[:, 7 + i, 7 + i] = P[:, 3 * i], P[:, 3 * i + 1], P[:, 3 * i + 1], P[:, 3 * i + 2]
    for j in range(4):
        M[:, 3 + j, 3 + j] = P[:, 9 + j]
    return M


def reference(x, P, z, matched, track_scene, scene_ptr, scene_dt):
    dev, N = x.device, x.shape[0]
    xs, Pf, zs = x.double(), _full_cov(P.double()), z.double()
    dt = scene_dt.double()[track_scene.long()]
    F = torch.eye(10, dtype=torch.float64, device=dev).repeat(N, 1, 1)
    for i in range(3):
        F[:, i, 7 + i] = dt
    Q = torch.diag(torch.tensor([Q_POS] * 7 + [Q_VEL] * 3, dtype=torch.float64, device=dev))
    H = torch.eye(7, 10, dtype=torch.float64, device=dev)
    R = torch.eye(7, dtype=torch.float64, device=dev) * R_MEAS
    xs = (F @ xs.unsqueeze(2)).squeeze(2)
    Pf = F @ Pf @ F.transpose(1, 2) + Q
    S = H @ Pf @ H.T + R
    K = torch.linalg.solve(S, H @ Pf).transpose(1, 2)  # P H^T S^-1 (S, P symmetric)
    x_upd = xs + (K @ (zs - xs[:, :7]).unsqueeze(2)).squeeze(2)
    P_upd = (torch.eye(10, dtype=torch.float64, device=dev) - K @ H) @ Pf
    m = matched.bool()
    xs = torch.where(m[:, None], x_upd, xs)
    Pf = torch.where(m[:, None, None], P_upd, Pf)
    cols = [Pf[:, i, i] if k == 0 else (Pf[:, i, 7 + i] if k == 1 else Pf[:, 7 + i, 7 + i]) for i in range(3) for k in range(3)]
    cols += [Pf[:, 3 + j, 3 + j] for j in range(4)]
    return xs.to(x.dtype), torch.stack(cols, 1).to(P.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["S"] * (s["T_MIN"] + s["T_MAX"]) // 2  # expected track count
    return {"bytes": n * 4 * (10 + 13 + 7 + 1 + 1 + 10 + 13) + s["S"] * 8, "flops": 120 * n}
