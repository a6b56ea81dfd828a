"""Gaussian-weighted sliding-window blending (nnU-Net): each output tile sums its covering windows."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _blend_windows(preds, gauss, out, n_items, NZ, NY, NX, C, P,
                   SB: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    S = P // 2
    D = (NZ + 1) * S
    H = (NY + 1) * S
    W = (NX + 1) * S
    rows = tl.arange(0, SB)
    cols = tl.arange(0, SB)
    mask = (rows < S)[:, None] & (cols < S)[None, :]
    for item in range(pid, n_items, nprog):
        jx = item % (NX + 1)
        jy = (item // (NX + 1)) % (NY + 1)
        z = (item // ((NX + 1) * (NY + 1))) % D
        c = item // ((NX + 1) * (NY + 1) * D)
        jz = z // S
        acc = tl.zeros((SB, SB), dtype=tl.float32)
        wsum = tl.zeros((SB, SB), dtype=tl.float32)
        for dz in tl.static_range(2):
            iz = jz - 1 + dz
            zl = z - iz * S
            for dy in tl.static_range(2):
                iy = jy - 1 + dy
                for dx in tl.static_range(2):
                    ix = jx - 1 + dx
                    if (iz >= 0) & (iz < NZ) & (iy >= 0) & (iy < NY) & (ix >= 0) & (ix < NX):
                        local = zl * P * P + ((1 - dy) * S + rows)[:, None] * P + ((1 - dx) * S + cols)[None, :]
                        window = (iz * NY + iy) * NX + ix
                        g = tl.load(gauss + local, mask=mask, other=0.0).to(tl.float32)
                        p = tl.load(preds + (window * C + c) * P * P * P + local, mask=mask, other=0.0)
                        acc += p.to(tl.float32) * g
                        wsum += g
        vox = (z * H + jy * S + rows)[:, None] * W + (jx * S + cols)[None, :]
        tl.store(out + c * D * H * W + vox, acc / wsum, mask=mask)


def run(preds: torch.Tensor, gauss: torch.Tensor) -> torch.Tensor:
    NZ, NY, NX, C, P = preds.shape[:5]
    S = P // 2
    D, H, W = (NZ + 1) * S, (NY + 1) * S, (NX + 1) * S
    out = torch.empty((C, D, H, W), device=preds.device, dtype=torch.float32)
    n_items = C * D * (NY + 1) * (NX + 1)
    grid = (min(NUM_CORES, n_items),)
    _blend_windows[grid](preds, gauss, out, n_items, NZ, NY, NX, C, P, SB=triton.next_power_of_2(S))
    return out
