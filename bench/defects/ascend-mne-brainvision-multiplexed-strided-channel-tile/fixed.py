"""BrainVision multiplexed int16 -> calibrated channel-major float (mne.io.read_raw_brainvision, preload)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK_T = 128


@triton.jit
def _demux_calibrate(src, cals, dst, n_times, C, BC: tl.constexpr, BT: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    ch = tl.arange(0, BC)
    cmask = ch < C
    g = tl.load(cals + ch, mask=cmask, other=0.0)
    for blk in range(pid, tl.cdiv(n_times, BT), nprog):
        t = blk * BT + tl.arange(0, BT)
        tmask = t < n_times
        x = tl.load(src + t[:, None] * C + ch[None, :], mask=tmask[:, None] & cmask[None, :], other=0)
        y = x.to(tl.float32) * g[None, :]
        mask = cmask[:, None] & tmask[None, :]
        tl.store(dst + ch[:, None] * n_times + t[None, :], tl.trans(y), mask=mask)


def run(raw_mux: torch.Tensor, cals: torch.Tensor) -> torch.Tensor:
    n_times, C = raw_mux.shape
    out = torch.empty((C, n_times), device=raw_mux.device, dtype=cals.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(n_times, _BLOCK_T)),)
    _demux_calibrate[grid](raw_mux, cals, out, n_times, C, BC=triton.next_power_of_2(C), BT=_BLOCK_T)
    return out
