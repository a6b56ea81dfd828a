"""Cumulative DVH of one structure: percent of its voxels above each dose point (RTDOSE pixel units)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK_P = 8
BLOCK_V = 1024


@triton.jit
def _cum_dvh(dose_px, thr_px, dvh, N, P, pct, BLOCK_P: tl.constexpr, BLOCK_V: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    vox = tl.arange(0, BLOCK_V)
    for pb in range(pid, tl.cdiv(P, BLOCK_P), nprog):
        pts = pb * BLOCK_P + tl.arange(0, BLOCK_P)
        pok = pts < P
        t = tl.load(thr_px + pts, mask=pok, other=0).to(tl.float32)
        hits = tl.zeros([BLOCK_P], dtype=tl.float32)
        for v0 in range(0, N, BLOCK_V):
            offs = v0 + vox
            d = tl.load(dose_px + offs, mask=offs < N, other=-1).to(tl.float32)
            above = d[None, :] > t[:, None]
            hits += tl.sum(above.to(tl.float32), axis=1)
        tl.store(dvh + pts, hits * pct, mask=pok)


def run(dose_px: torch.Tensor, thr_px: torch.Tensor) -> torch.Tensor:
    N = dose_px.numel()
    P = thr_px.numel()
    dvh = torch.empty(P, device=dose_px.device, dtype=torch.float32)
    grid = (min(_VECTOR_CORES, triton.cdiv(P, BLOCK_P)),)
    _cum_dvh[grid](dose_px, thr_px, dvh, N, P, 100.0 / N, BLOCK_P=BLOCK_P, BLOCK_V=BLOCK_V)
    return dvh
