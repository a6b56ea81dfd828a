"""FLAC LPC residual from quantized coefficients (libFLAC lpc.c), warm-up slots zeroed."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_GUARD = 32  # FLAC__MAX_LPC_ORDER samples of guard ahead of the first subframe


@triton.jit
def _lpc_residual(pcm, qlp, order, shift, res, NB, N, QS, GUARD, BN: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lanes = tl.arange(0, BN)
    lanes_f = lanes.to(tl.float32)
    for b in range(pid, NB, nprog):
        k = tl.load(order + b)
        sh = tl.load(shift + b)
        base = GUARD + b * N
        for t0 in range(0, N, BN):
            i = t0 + lanes
            m = i < N
            x = tl.load(pcm + base + i, mask=m, other=0)
            acc = tl.zeros([BN], dtype=tl.int32)
            for j in range(0, k):
                c = tl.load(qlp + b * QS + j)
                hist = tl.load(pcm + base + i - 1 - j, mask=m, other=0)
                acc += c * hist
            r = x - (acc >> sh)
            r = tl.where(lanes_f >= (k - t0).to(tl.float32), r, 0)  # warm-up samples are sent verbatim
            tl.store(res + b * N + i, r, mask=m)


def run(pcm: torch.Tensor, qlp: torch.Tensor, order: torch.Tensor, shift: torch.Tensor) -> torch.Tensor:
    NB, QS = qlp.shape
    N = (pcm.numel() - _GUARD) // NB
    res = torch.empty((NB, N), device=pcm.device, dtype=torch.int32)
    BN = min(4096, triton.next_power_of_2(N))
    grid = (min(_VECTOR_CORES, NB),)
    _lpc_residual[grid](pcm, qlp, order, shift, res, NB, N, QS, _GUARD, BN=BN)
    return res
