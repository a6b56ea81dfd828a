"""Classic STA/LTA characteristic function (ObsPy classic_sta_lta) over a network's channels."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BT = 2048
_TINY = 1.1754943508222875e-38


@triton.jit
def _classic_sta_lta(a, cft, n, n_blocks, n_items, nsta, nlta,
                     TINY: tl.constexpr, BT: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs = tl.arange(0, BT)
    for item in range(pid, n_items, nprog):
        ch = item // n_blocks
        t0 = (item % n_blocks) * BT
        t = t0 + offs
        row = a + ch * n
        # window sums ending at t0 - 1: the nsta / nlta samples before the block, whole tiles at a time
        acc = tl.zeros([BT], dtype=tl.float32)
        for s in range(t0 - nsta, t0, BT):
            src = s + offs
            x = tl.load(row + src, mask=(src >= 0) & (src < t0), other=0.0)
            acc += x * x
        sta0 = tl.sum(acc, axis=0)
        acc = tl.zeros([BT], dtype=tl.float32)
        for s in range(t0 - nlta, t0, BT):
            src = s + offs
            x = tl.load(row + src, mask=(src >= 0) & (src < t0), other=0.0)
            acc += x * x
        lta0 = tl.sum(acc, axis=0)
        # inside the block the windows slide: add a[t]^2, drop a[t - w]^2
        x = tl.load(row + t, mask=t < n, other=0.0)
        src = (t0 - nsta) + offs
        xs = tl.load(row + src, mask=(src >= 0) & (src < n), other=0.0)
        src = (t0 - nlta) + offs
        xl = tl.load(row + src, mask=(src >= 0) & (src < n), other=0.0)
        x2 = x * x
        sta = sta0 + tl.cumsum(x2 - xs * xs, axis=0)
        lta = lta0 + tl.cumsum(x2 - xl * xl, axis=0)
        lta = tl.maximum(lta / nlta, TINY)
        ratio = (sta / nsta) / lta
        ratio = tl.where(t.to(tl.float32) >= nlta - 1.0, ratio, 0.0)
        tl.store(cft + ch * n + t, ratio, mask=t < n)


def run(a: torch.Tensor, nsta: int, nlta: int) -> torch.Tensor:
    C, N = a.shape
    cft = torch.empty((C, N), device=a.device, dtype=a.dtype)
    n_blocks = triton.cdiv(N, _BT)
    n_items = C * n_blocks
    grid = (min(_VECTOR_CORES, n_items),)
    _classic_sta_lta[grid](a, cft, N, n_blocks, n_items, nsta, nlta, TINY=_TINY, BT=_BT)
    return cft
