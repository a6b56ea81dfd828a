"""NoisePy phase-weighted stack: |mean unit phasor|^power times the linear mean, over the daily CCFs."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BM = 1024


@triton.jit
def _pws_stack(x_ptr, h_ptr, out_ptr, P, N, M, POWER: tl.constexpr, BM: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    nmb = tl.cdiv(M, BM)
    for item in range(pid, P * nmb, nprog):
        p = item // nmb
        cols = (item - p * nmb) * BM + tl.arange(0, BM)
        mask = cols < M
        base = p * N * M
        s_lin = tl.zeros([BM], dtype=tl.float32)
        s_cos = tl.zeros([BM], dtype=tl.float32)
        s_sin = tl.zeros([BM], dtype=tl.float32)
        for n in range(N):
            x = tl.load(x_ptr + base + n * M + cols, mask=mask, other=0.0)
            h = tl.load(h_ptr + base + n * M + cols, mask=mask, other=0.0)
            amp = tl.sqrt(x * x + h * h)
            nz = amp > 0.0
            inv = 1.0 / tl.where(nz, amp, 1.0)
            s_lin += x
            s_cos += tl.where(nz, x * inv, 1.0)
            s_sin += h * inv
        inv_n = 1.0 / N
        coh = (s_cos * s_cos + s_sin * s_sin) * (inv_n * inv_n)
        weight = tl.full([BM], 1.0, dtype=tl.float32)
        for _ in tl.static_range(POWER // 2):
            weight = weight * coh
        tl.store(out_ptr + p * M + cols, weight * (s_lin * inv_n), mask=mask)


def run(ccf: torch.Tensor, hil: torch.Tensor, power: int) -> torch.Tensor:
    P, N, M = ccf.shape
    out = torch.empty((P, M), device=ccf.device, dtype=ccf.dtype)
    grid = (min(_VECTOR_CORES, P * triton.cdiv(M, BM)),)
    _pws_stack[grid](ccf, hil, out, P, N, M, POWER=power, BM=BM)
    return out
