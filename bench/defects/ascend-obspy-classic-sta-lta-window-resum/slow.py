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
        # STA and LTA: the mean of a^2 over the nsta / nlta samples ending at t
        sta = tl.zeros([BT], dtype=tl.float32)
        for k in range(0, nsta):
            src = (t0 - k) + offs
            x = tl.load(row + src, mask=(src >= 0) & (src < n), other=0.0)
            sta += x * x
        lta = tl.zeros([BT], dtype=tl.float32)
        for k in range(0, nlta):
            src = (t0 - k) + offs
            x = tl.load(row + src, mask=(src >= 0) & (src < n), other=0.0)
            lta += x * x
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
