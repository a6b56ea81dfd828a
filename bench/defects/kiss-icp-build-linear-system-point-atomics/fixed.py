"""KISS-ICP BuildLinearSystem: robust point-to-point Gauss-Newton normal equations JTJ, JTr."""
import torch
import triton
import triton.language as tl

CHUNK = 1024   # correspondences per program
TILE = 64      # correspondences per step of a program's loop


@triton.jit
def _icp_normal_equations(src, tgt, jtj, jtr, n, kappa,
                          CHUNK: tl.constexpr, TILE: tl.constexpr):
    start = tl.program_id(0) * CHUNK
    col = tl.arange(0, 8)                      # the 6 twist coordinates, padded to 8
    c = col[None, :]
    ok = col < 6
    hidx = col[:, None] * 6 + col[None, :]
    hok = ok[:, None] & ok[None, :]
    acc_h = tl.zeros([8, 8], dtype=tl.float32)
    acc_g = tl.zeros([8], dtype=tl.float32)
    for k in range(0, CHUNK, TILE):
        i = start + k + tl.arange(0, TILE)
        m = i < n
        sx = tl.load(src + 3 * i, mask=m, other=0.0)
        sy = tl.load(src + 3 * i + 1, mask=m, other=0.0)
        sz = tl.load(src + 3 * i + 2, mask=m, other=0.0)
        tx = tl.load(tgt + 3 * i, mask=m, other=0.0)
        ty = tl.load(tgt + 3 * i + 1, mask=m, other=0.0)
        tz = tl.load(tgt + 3 * i + 2, mask=m, other=0.0)
        rx = sx - tx
        ry = sy - ty
        rz = sz - tz
        d = kappa + rx * rx + ry * ry + rz * rz
        w = tl.where(m, kappa * kappa / (d * d), 0.0)          # Geman-McClure
        # rows of J_r = [ I | -[s]x ]
        J0 = tl.where(c == 0, 1.0, tl.where(c == 4, sz[:, None], tl.where(c == 5, -sy[:, None], 0.0)))
        J1 = tl.where(c == 1, 1.0, tl.where(c == 3, -sz[:, None], tl.where(c == 5, sx[:, None], 0.0)))
        J2 = tl.where(c == 2, 1.0, tl.where(c == 3, sy[:, None], tl.where(c == 4, -sx[:, None], 0.0)))
        H = (J0[:, :, None] * J0[:, None, :] + J1[:, :, None] * J1[:, None, :]
             + J2[:, :, None] * J2[:, None, :]) * w[:, None, None]
        g = (J0 * rx[:, None] + J1 * ry[:, None] + J2 * rz[:, None]) * w[:, None]
        acc_h += tl.sum(H, axis=0)
        acc_g += tl.sum(g, axis=0)
    tl.atomic_add(jtj + hidx, acc_h.to(tl.float64), mask=hok)
    tl.atomic_add(jtr + col, acc_g.to(tl.float64), mask=ok)


def run(source: torch.Tensor, target: torch.Tensor, kappa: float) -> tuple:
    n = source.shape[0]
    jtj = torch.zeros(6, 6, device=source.device, dtype=torch.float64)
    jtr = torch.zeros(6, device=source.device, dtype=torch.float64)
    grid = (triton.cdiv(n, CHUNK),)
    _icp_normal_equations[grid](source, target, jtj, jtr, n, kappa,
                                CHUNK=CHUNK, TILE=TILE, num_warps=4)
    return jtj, jtr
