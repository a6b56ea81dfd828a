"""ICA.apply: the folded un-mix / drop-components / re-mix projection, out = proj @ data + offset."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20
_BLOCK_K = 64
_BLOCK_T = 128


@triton.jit
def _ica_apply(data, proj, offset, out, C, n_times, stride_d, stride_p, stride_o,
               BC: tl.constexpr, BK: tl.constexpr, BT: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rows = tl.arange(0, BC)
    rmask = rows < C
    b = tl.load(offset + rows, mask=rmask, other=0.0)
    for blk in range(pid, tl.cdiv(n_times, BT), nprog):
        t = blk * BT + tl.arange(0, BT)
        tmask = t < n_times
        acc = tl.zeros([BC, BT], dtype=tl.float32)
        for k0 in range(0, C, BK):
            k = k0 + tl.arange(0, BK)
            kmask = k < C
            p = tl.load(proj + rows[:, None] * stride_p + k[None, :], mask=rmask[:, None] & kmask[None, :], other=0.0)
            x = tl.load(data + k[:, None] * stride_d + t[None, :], mask=kmask[:, None] & tmask[None, :], other=0.0)
            acc += tl.dot(p, x)
        y = acc + b[:, None]
        tl.store(out + rows[:, None] * stride_o + t[None, :], y, mask=rmask[:, None] & tmask[None, :])


def run(data: torch.Tensor, proj: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
    C, n_times = data.shape
    out = torch.empty((C, n_times), device=data.device, dtype=data.dtype)
    BC = max(16, triton.next_power_of_2(C))
    grid = (min(_AI_CORES, triton.cdiv(n_times, _BLOCK_T)),)
    _ica_apply[grid](data, proj, offset, out, C, n_times, data.stride(0), proj.stride(0), out.stride(0),
                     BC=BC, BK=min(_BLOCK_K, BC), BT=_BLOCK_T)
    return out
