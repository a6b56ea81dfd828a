"""BEVFusion LSS geometry: frustum points to lidar-frame BEV cells and bev_pool ranks (-1 outside the grid)."""
import torch
import triton
import triton.language as tl

IMG_H, IMG_W = 256, 704
D_MIN, D_MAX = 1.0, 60.0
XY_LO, XY_CELL, NXY = -54.0, 0.3, 360
Z_LO, Z_CELL, NZ = -10.0, 20.0, 1
NUM_PROGRAMS = 40


@triton.jit
def _mat_row(prm, k: tl.constexpr, x, y, z):
    return tl.load(prm + k) * x + tl.load(prm + k + 1) * y + tl.load(prm + k + 2) * z


@triton.jit
def _lss_geometry(calib, ranks, B, N, D, H, W, su, sv, d_min, d_step,
                  xy_lo, xy_cell, z_lo, z_cell, NX, NZ_, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    h = tl.arange(0, BLOCK_H)[:, None]
    w = tl.arange(0, BLOCK_W)[None, :]
    m = (h < H) & (w < W)
    for plane in range(pid, B * N * D, nprog):
        cam = plane // D
        d = plane % D
        b = cam // N
        prm = calib + cam * 24
        px = w.to(tl.float32) * su - tl.load(prm + 9)
        py = h.to(tl.float32) * sv - tl.load(prm + 10)
        pz = (d_min + d.to(tl.float32) * d_step) - tl.load(prm + 11)
        qx = _mat_row(prm, 0, px, py, pz)
        qy = _mat_row(prm, 3, px, py, pz)
        qz = _mat_row(prm, 6, px, py, pz)
        qx = qx * qz
        qy = qy * qz
        gx = _mat_row(prm, 12, qx, qy, qz) + tl.load(prm + 21)
        gy = _mat_row(prm, 15, qx, qy, qz) + tl.load(prm + 22)
        gz = _mat_row(prm, 18, qx, qy, qz) + tl.load(prm + 23)
        ix = ((gx - xy_lo) / xy_cell).to(tl.int32)
        iy = ((gy - xy_lo) / xy_cell).to(tl.int32)
        iz = ((gz - z_lo) / z_cell).to(tl.int32)
        kept = (ix >= 0) & (ix < NX) & (iy >= 0) & (iy < NX) & (iz >= 0) & (iz < NZ_)
        rank = ix * (NX * NZ_ * B) + iy * (NZ_ * B) + iz * B + b
        tl.store(ranks + plane * H * W + h * W + w, tl.where(kept, rank, -1), mask=m)


def run(cam_params: torch.Tensor, D: int, H: int, W: int) -> torch.Tensor:
    B, N = cam_params.shape[:2]
    ranks = torch.empty((B, N, D, H, W), device=cam_params.device, dtype=torch.int32)
    grid = (min(NUM_PROGRAMS, B * N * D),)
    _lss_geometry[grid](cam_params, ranks, B, N, D, H, W, (IMG_W - 1) / (W - 1), (IMG_H - 1) / (H - 1),
                        D_MIN, (D_MAX - D_MIN) / D, XY_LO, XY_CELL, Z_LO, Z_CELL, NXY, NZ,
                        BLOCK_H=triton.next_power_of_2(H), BLOCK_W=triton.next_power_of_2(W))
    return ranks
