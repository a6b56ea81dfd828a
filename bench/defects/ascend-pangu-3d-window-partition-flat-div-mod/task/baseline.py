"""Pangu-Weather 3-D window partition: persistent programs, one (2, 6, 12) window per step."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _window_partition(x, out, n_windows, Z, H, W, C, n_z, n_h, n_w,
                      NPROG: tl.constexpr, WZ: tl.constexpr, WH: tl.constexpr, WW: tl.constexpr,
                      ROWS: tl.constexpr, CHUNK: tl.constexpr):
    pid = tl.program_id(0)
    run_len = WW * C
    dh = tl.arange(0, ROWS)
    cols = tl.arange(0, CHUNK)
    for win in range(pid, n_windows, NPROG):
        band = win // (n_z * n_h)
        zh = win % (n_z * n_h)
        b = band // n_w
        lon = band % n_w
        zi = zh // n_h
        hi = zh % n_h
        for dz in range(WZ):
            src_row = ((b * Z + zi * WZ + dz) * H + hi * WH + dh) * W + lon * WW
            dst_row = win * (WZ * WH * WW) + (dz * WH + dh) * WW
            for c0 in range(0, run_len, CHUNK):
                c = c0 + cols
                mask = (dh[:, None] < WH) & (c[None, :] < run_len)
                tile = tl.load(x + src_row[:, None] * C + c[None, :], mask=mask)
                tl.store(out + dst_row[:, None] * C + c[None, :], tile, mask=mask)


def run(x: torch.Tensor) -> torch.Tensor:
    B, Z, H, W, C = x.shape
    WZ, WH, WW = 2, 6, 12
    n_z, n_h, n_w = Z // WZ, H // WH, W // WW
    out = torch.empty((B * n_w, n_z * n_h, WZ * WH * WW, C), device=x.device, dtype=x.dtype)
    n_windows = B * n_w * n_z * n_h
    run_len = WW * C
    chunk = min(1024, run_len & -run_len)
    if chunk < 32:
        chunk = min(1024, triton.next_power_of_2(run_len))
    nprog = min(n_windows, NUM_VECTOR_CORES)
    _window_partition[(nprog,)](x, out, n_windows, Z, H, W, C, n_z, n_h, n_w, NPROG=nprog,
                                WZ=WZ, WH=WH, WW=WW, ROWS=triton.next_power_of_2(WH), CHUNK=chunk)
    return out
