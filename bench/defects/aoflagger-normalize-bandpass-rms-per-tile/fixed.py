"""AOFlagger NormalizeSmooth: scale every channel of a baseline's images by 1 / RMS of its unflagged samples."""
import torch
import triton
import triton.language as tl

BLOCK_C = 4
BLOCK_T = 256


@triton.jit
def _channel_scale(data, flags, scale_out, C, T, n_pol,
                   N_IMG: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_T: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    row_ok = rows < C
    plane = C * T
    # RMS of the unflagged samples of these channels, over the whole observation and all images
    acc = tl.zeros([BLOCK_C, BLOCK_T], dtype=tl.float32)
    cnt = tl.zeros([BLOCK_C, BLOCK_T], dtype=tl.int32)
    for t0 in range(0, T, BLOCK_T):
        cols = t0 + tl.arange(0, BLOCK_T)
        ok = row_ok[:, None] & (cols[None, :] < T)
        offs = rows[:, None] * T + cols[None, :]
        f = tl.load(flags + offs, mask=ok, other=1)
        keep = ok & (f == 0)
        cnt += keep.to(tl.int32)
        for i in tl.static_range(N_IMG):
            x = tl.load(data + i * plane + offs, mask=ok, other=0.0)
            acc += tl.where(keep, x * x, 0.0)
    n = tl.sum(cnt, axis=1) * n_pol
    rms = tl.sqrt(tl.sum(acc, axis=1) / tl.maximum(n, 1).to(tl.float32))
    scale = tl.where(rms > 0.0, 1.0 / tl.where(rms > 0.0, rms, 1.0), 0.0)
    tl.store(scale_out + rows, scale, mask=row_ok)


@triton.jit
def _apply_scale(data, scale_in, out, C, T,
                 N_IMG: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_T: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    row_ok = rows < C
    plane = C * T
    scale = tl.load(scale_in + rows, mask=row_ok, other=0.0)
    # this program's time block of every image, scaled
    cols = tl.program_id(1) * BLOCK_T + tl.arange(0, BLOCK_T)
    ok = row_ok[:, None] & (cols[None, :] < T)
    offs = rows[:, None] * T + cols[None, :]
    for i in tl.static_range(N_IMG):
        x = tl.load(data + i * plane + offs, mask=ok, other=0.0)
        tl.store(out + i * plane + offs, x * scale[:, None], mask=ok)


def run(data: torch.Tensor, flags: torch.Tensor) -> torch.Tensor:
    n_pol, _, n_chan, n_time = data.shape
    out = torch.empty_like(data)
    scale = torch.empty(n_chan, device=data.device, dtype=torch.float32)
    _channel_scale[(triton.cdiv(n_chan, BLOCK_C),)](data, flags.view(torch.uint8), scale, n_chan, n_time, n_pol,
                                                    N_IMG=2 * n_pol, BLOCK_C=BLOCK_C, BLOCK_T=BLOCK_T, num_warps=4)
    grid = (triton.cdiv(n_chan, BLOCK_C), triton.cdiv(n_time, BLOCK_T))
    _apply_scale[grid](data, scale, out, n_chan, n_time,
                       N_IMG=2 * n_pol, BLOCK_C=BLOCK_C, BLOCK_T=BLOCK_T, num_warps=4)
    return out
