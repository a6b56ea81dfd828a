"""Two-RC Thevenin ECM over a sweep of cells: SOC and RC voltages stepped through a drive cycle."""
import torch
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _thevenin_run(current, soc0, cap_ah, r0, r1, c1, r2, c2, ocv, volts, soc_out,
                  n_cells, n_steps, dt, N_OCV: tl.constexpr, BLOCK: tl.constexpr):
    cells = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = cells < n_cells
    z = tl.load(soc0 + cells, mask=ok, other=0.0)
    q = tl.load(cap_ah + cells, mask=ok, other=1.0)
    res0 = tl.load(r0 + cells, mask=ok, other=0.0)
    res1 = tl.load(r1 + cells, mask=ok, other=1.0)
    cap1 = tl.load(c1 + cells, mask=ok, other=1.0)
    res2 = tl.load(r2 + cells, mask=ok, other=1.0)
    cap2 = tl.load(c2 + cells, mask=ok, other=1.0)
    a1 = tl.exp(-dt / (res1 * cap1))
    a2 = tl.exp(-dt / (res2 * cap2))
    u1 = tl.zeros([BLOCK], dtype=tl.float32)
    u2 = tl.zeros([BLOCK], dtype=tl.float32)
    for t in range(n_steps):
        i_app = tl.load(current + t)
        pos = tl.minimum(tl.maximum(z, 0.0), 1.0) * (N_OCV - 1)
        k = tl.minimum(pos.to(tl.int32), N_OCV - 2)
        w = pos - k.to(tl.float32)
        e = tl.load(ocv + k, mask=ok, other=0.0) * (1.0 - w) + tl.load(ocv + k + 1, mask=ok, other=0.0) * w
        tl.store(volts + t * n_cells + cells, e - u1 - u2 - res0 * i_app, mask=ok)
        z = z - i_app * dt / (3600.0 * q)
        u1 = a1 * u1 + res1 * (1.0 - a1) * i_app
        u2 = a2 * u2 + res2 * (1.0 - a2) * i_app
    tl.store(soc_out + cells, z, mask=ok)


def run(current, cap_ah, r0, r1, c1, r2, c2, soc0, ocv, dt) -> tuple:
    n_steps, n_cells = current.shape[0], soc0.shape[0]
    volts = torch.empty((n_steps, n_cells), device=soc0.device, dtype=torch.float32)
    soc = torch.empty_like(soc0)
    grid = (triton.cdiv(n_cells, BLOCK),)
    _thevenin_run[grid](current, soc0, cap_ah, r0, r1, c1, r2, c2, ocv, volts, soc,
                        n_cells, n_steps, dt, N_OCV=ocv.shape[0], BLOCK=BLOCK, num_warps=4)
    return volts, soc
