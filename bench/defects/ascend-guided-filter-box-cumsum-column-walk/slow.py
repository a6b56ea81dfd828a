"""guided_filter_pytorch BoxFilter(r) for the Ascend NPU: cumsum along H, row difference fused with the cumsum
along W, column difference. Every kernel runs one program per vector core, each looping over its tasks."""
import torch
import triton
import triton.language as tl
from triton.runtime import driver

SCAN_CHUNK = 1024   # 4 KB of one column per step in the 192 KB unified buffer
BAND_ROWS = 8       # [8, 512] fp32 tiles for the two difference passes
BAND_COLS = 512


def _vector_core_count(device: torch.device) -> int:
    if device.type == "npu":
        return driver.active.utils.get_device_properties(device.index or 0)["num_vectorcore"]
    return 40


@triton.jit
def _cumsum_h_kernel(x_ptr, p_ptr, H, W, n_cols, BLOCK_H: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rows = tl.arange(0, BLOCK_H)
    for col in range(pid, n_cols, nprog):
        base = (col // W) * H * W + col % W
        carry = 0.0
        for h0 in range(0, H, BLOCK_H):
            h = h0 + rows
            m = h < H
            v = tl.load(x_ptr + base + h * W, mask=m, other=0.0)
            tl.store(p_ptr + base + h * W, tl.cumsum(v, axis=0) + carry, mask=m)
            carry += tl.sum(v, axis=0)


@triton.jit
def _row_band(p_plane, h, w, hm, wm, H, W, r):
    up = h + r
    dn = h - r - 1
    last = tl.load(p_plane + (H - 1) * W + w, mask=wm, other=0.0)
    a = tl.load(p_plane + up[:, None] * W + w[None, :], mask=(hm & (up < H))[:, None] & wm[None, :], other=0.0)
    a = tl.where((up >= H)[:, None], last[None, :], a)
    b = tl.load(p_plane + dn[:, None] * W + w[None, :], mask=(hm & (dn >= 0))[:, None] & wm[None, :], other=0.0)
    return a - b


@triton.jit
def _band_h_cumsum_w_kernel(p_ptr, q_ptr, tot_ptr, H, W, r, n_rblocks, n_tasks,
                            BLOCK_R: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rows = tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_W)
    for task in range(pid, n_tasks, nprog):
        plane = task // n_rblocks
        h = (task % n_rblocks) * BLOCK_R + rows
        hm = h < H
        base = plane * H * W
        carry = tl.zeros([BLOCK_R], dtype=tl.float32)
        for w0 in range(0, W, BLOCK_W):
            w = w0 + cols
            wm = w < W
            v = _row_band(p_ptr + base, h, w, hm, wm, H, W, r)
            q = tl.cumsum(v, axis=1) + carry[:, None]
            tl.store(q_ptr + base + h[:, None] * W + w[None, :], q, mask=hm[:, None] & wm[None, :])
            carry += tl.sum(v, axis=1)
        tl.store(tot_ptr + plane * H + h, carry, mask=hm)


@triton.jit
def _band_w_kernel(q_ptr, tot_ptr, out_ptr, H, W, r, n_rblocks, n_tasks,
                   BLOCK_R: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rows = tl.arange(0, BLOCK_R)
    cols = tl.arange(0, BLOCK_W)
    for task in range(pid, n_tasks, nprog):
        plane = task // n_rblocks
        h = (task % n_rblocks) * BLOCK_R + rows
        hm = h < H
        row_off = plane * H * W + h * W
        row_tot = tl.load(tot_ptr + plane * H + h, mask=hm, other=0.0)
        for w0 in range(0, W, BLOCK_W):
            w = w0 + cols
            wm = w < W
            right = w + r
            left = w - r - 1
            a = tl.load(q_ptr + row_off[:, None] + right[None, :],
                        mask=hm[:, None] & (wm & (right < W))[None, :], other=0.0)
            a = tl.where((right >= W)[None, :], row_tot[:, None], a)
            b = tl.load(q_ptr + row_off[:, None] + left[None, :],
                        mask=hm[:, None] & (wm & (left >= 0))[None, :], other=0.0)
            tl.store(out_ptr + row_off[:, None] + w[None, :], a - b, mask=hm[:, None] & wm[None, :])


def run(x: torch.Tensor, r: int) -> torch.Tensor:
    B, C, H, W = x.shape
    planes = B * C
    cores = _vector_core_count(x.device)
    prefix_h = torch.empty_like(x)
    prefix_w = torch.empty_like(x)
    row_total = torch.empty((planes, H), device=x.device, dtype=torch.float32)
    out = torch.empty_like(x)

    n_cols = planes * W
    scan_block = min(triton.next_power_of_2(H), SCAN_CHUNK)
    _cumsum_h_kernel[(min(n_cols, cores),)](x, prefix_h, H, W, n_cols, BLOCK_H=scan_block)

    n_rblocks = triton.cdiv(H, BAND_ROWS)
    band_tasks = planes * n_rblocks
    band_grid = (min(band_tasks, cores),)
    band_meta = {"BLOCK_R": BAND_ROWS, "BLOCK_W": BAND_COLS}
    _band_h_cumsum_w_kernel[band_grid](prefix_h, prefix_w, row_total, H, W, r, n_rblocks, band_tasks, **band_meta)
    _band_w_kernel[band_grid](prefix_w, row_total, out, H, W, r, n_rblocks, band_tasks, **band_meta)
    return out
