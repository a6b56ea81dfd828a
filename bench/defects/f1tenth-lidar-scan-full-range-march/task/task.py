"""Batched 2-D lidar scan simulation on an occupancy grid (F1TENTH gym ScanSimulator2D-style).

Every environment has a pose on a shared occupancy grid (0.05 m cells). Each of its beams marches
from the sensor origin one cell length per step, in 16.16 fixed-point cell coordinates, and reports
the range of the first sample that lands in an occupied cell (cells outside the map count as
occupied), or the 30 m maximum range when nothing is hit.
  ranges[e, b] = RES_M * min{k in 1..MAX_STEPS : occupied((o_e + k * dir[(yaw_e + beam_off[b]) % NA]) >> 16)}
"""
import torch

RES_M = 0.05
MAX_RANGE_M = 30.0
MAX_STEPS = 600          # MAX_RANGE_M / RES_M
N_ANGLES = 1440          # 0.25 degree direction table
FX = 65536               # 16.16 fixed point

META = {
    "name": "lidar_scan_occupancy_march",
    "level": 2,
    "category": "simulation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-6}},
    "sizes": {
        "small": {"E": 3, "B": 40, "H": 96, "W": 96, "boxes": 30},
        "ragged": {"E": 5, "B": 77, "H": 80, "W": 130, "boxes": 40},
        "large": {"E": 4096, "B": 1080, "H": 2048, "W": 2048, "boxes": 9000},
    },
    "baseline_notes": "Rays flattened over (env, beam), 128 per program, 4 warps; each program marches its rays "
                      "cell by cell and leaves the loop as soon as every ray of the block has hit; no autotune.",
    "deterministic": True,
}


def _arena(H: int, W: int, boxes: int, g: torch.Generator) -> torch.Tensor:
    occ = torch.zeros(H, W, dtype=torch.uint8)
    occ[:2, :] = 1
    occ[-2:, :] = 1
    occ[:, :2] = 1
    occ[:, -2:] = 1
    ys = torch.randint(0, H, (boxes,), generator=g).tolist()
    xs = torch.randint(0, W, (boxes,), generator=g).tolist()
    hs = torch.randint(3, 17, (boxes,), generator=g).tolist()
    ws = torch.randint(3, 17, (boxes,), generator=g).tolist()
    for y, x, h, w in zip(ys, xs, hs, ws):
        occ[y:y + h, x:x + w] = 1
    return occ


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """grid uint8 [H, W] (1 = occupied), pose int32 [E, 3] (x, y in 16.16 fixed-point cells, yaw index),
    dirs int32 [N_ANGLES, 2] (one-cell step per direction, 16.16), beam_off int32 [B] (direction offset)."""
    s = META["sizes"][size]
    E, B, H, W = s["E"], s["B"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    grid = _arena(H, W, s["boxes"], g)
    cand = torch.stack([torch.randint(2, H - 2, (8 * E + 64,), generator=g),
                        torch.randint(2, W - 2, (8 * E + 64,), generator=g)], 1)
    free = cand[grid[cand[:, 0], cand[:, 1]] == 0][:E]
    frac = torch.randint(0, FX, (E, 2), generator=g)
    yaw = torch.randint(0, N_ANGLES, (E,), generator=g)
    pose = torch.stack([free[:, 1] * FX + frac[:, 0], free[:, 0] * FX + frac[:, 1], yaw], 1).to(torch.int32)
    theta = torch.arange(N_ANGLES, dtype=torch.float64) * (2 * torch.pi / N_ANGLES)
    dirs = torch.stack([torch.cos(theta), torch.sin(theta)], 1).mul(FX).round().to(torch.int32)
    beam_off = ((torch.arange(B) - B // 2) % N_ANGLES).to(torch.int32)
    return grid.to(device), pose.to(device), dirs.to(device), beam_off.to(device)


def reference(grid: torch.Tensor, pose: torch.Tensor, dirs: torch.Tensor, beam_off: torch.Tensor) -> torch.Tensor:
    H, W = grid.shape
    d = (pose[:, 2:3].long() + beam_off[None, :].long()) % dirs.shape[0]
    dx, dy = dirs[d, 0].long(), dirs[d, 1].long()
    ox, oy = pose[:, 0:1].long(), pose[:, 1:2].long()
    flat = grid.reshape(-1)
    steps = torch.full(d.shape, MAX_STEPS, dtype=torch.long, device=grid.device)
    pending = torch.ones(d.shape, dtype=torch.bool, device=grid.device)
    for k in range(1, MAX_STEPS + 1):
        cx, cy = (ox + k * dx) >> 16, (oy + k * dy) >> 16
        inside = (cx >= 0) & (cx < W) & (cy >= 0) & (cy < H)
        cell = flat[(cy.clamp(0, H - 1) * W + cx.clamp(0, W - 1))]
        occ = ~inside | (cell != 0)
        steps = torch.where(pending & occ, torch.full_like(steps, k), steps)
        pending = pending & ~occ
        if not bool(pending.any()):
            break
    return steps.to(torch.float32) * RES_M


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    rays = s["E"] * s["B"]
    return {"bytes": s["H"] * s["W"] + 12 * s["E"] + 8 * N_ANGLES + 4 * s["B"] + 4 * rays,
            "flops": 12 * rays * 64}
