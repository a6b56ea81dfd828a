"""Gaussian-weighted sliding-window blending (nnU-Net): accumulate each window, then normalise."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _accumulate_window(acc, cnt, preds, gauss, window, z0, y0, x0, C, P, D, H, W,
                       BY: tl.constexpr, BP: tl.constexpr):
    pid = tl.program_id(0)
    pred = preds + window * C * P * P * P
    nprog = tl.num_programs(0)
    n_yb = tl.cdiv(P, BY)
    n_items = C * P * n_yb
    rows = tl.arange(0, BY)
    cols = tl.arange(0, BP)
    for item in range(pid, n_items, nprog):
        yb = item % n_yb
        pz = (item // n_yb) % P
        c = item // (n_yb * P)
        py = yb * BY + rows
        mask = (py < P)[:, None] & (cols < P)[None, :]
        local = py[:, None] * P + cols[None, :]
        g = tl.load(gauss + pz * P * P + local, mask=mask, other=0.0).to(tl.float32)
        p = tl.load(pred + (c * P + pz) * P * P + local, mask=mask, other=0.0).to(tl.float32)
        vox = ((z0 + pz) * H + y0 + py)[:, None] * W + (x0 + cols)[None, :]
        a_ptr = acc + c * D * H * W + vox
        a = tl.load(a_ptr, mask=mask, other=0.0)
        tl.store(a_ptr, a + p * g, mask=mask)
        if c == 0:
            n = tl.load(cnt + vox, mask=mask, other=0.0)
            tl.store(cnt + vox, n + g, mask=mask)


@triton.jit
def _normalise(acc, cnt, n_vox, C, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_vb = tl.cdiv(n_vox, BLOCK)
    for item in range(pid, C * n_vb, nprog):
        c = item // n_vb
        offs = (item % n_vb) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n_vox
        n = tl.load(cnt + offs, mask=mask, other=1.0)
        a = tl.load(acc + c * n_vox + offs, mask=mask, other=0.0)
        tl.store(acc + c * n_vox + offs, a / n, mask=mask)


def run(preds: torch.Tensor, gauss: torch.Tensor) -> torch.Tensor:
    NZ, NY, NX, C, P = preds.shape[:5]
    S = P // 2
    D, H, W = (NZ + 1) * S, (NY + 1) * S, (NX + 1) * S
    acc = torch.zeros((C, D, H, W), device=preds.device, dtype=torch.float32)
    cnt = torch.zeros((D, H, W), device=preds.device, dtype=torch.float32)
    BY, BP = 16, triton.next_power_of_2(P)
    grid = (min(NUM_CORES, C * P * triton.cdiv(P, BY)),)
    for iz in range(NZ):
        for iy in range(NY):
            for ix in range(NX):
                window = (iz * NY + iy) * NX + ix
                _accumulate_window[grid](acc, cnt, preds, gauss, window, iz * S, iy * S, ix * S,
                                         C, P, D, H, W, BY=BY, BP=BP)
    BLOCK = 2048
    n_vox = D * H * W
    _normalise[(min(NUM_CORES, C * triton.cdiv(n_vox, BLOCK)),)](acc, cnt, n_vox, C, BLOCK=BLOCK)
    return acc
