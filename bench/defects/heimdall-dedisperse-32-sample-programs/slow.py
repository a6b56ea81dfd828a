"""Brute-force incoherent dedispersion: out[d, t] = sum_f data[f, t + delays[d, f]], one DM trial per program row."""
import torch
import triton
import triton.language as tl


@triton.jit
def _dedisperse(data, delays, out, F, T, stride_f, BLOCK_T: tl.constexpr):
    pid_t = tl.program_id(0)
    dm = tl.program_id(1)
    t = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    acc = tl.zeros((BLOCK_T,), dtype=tl.float32)
    delay_row = delays + dm * F
    for f in range(0, F):
        src = t + tl.load(delay_row + f)
        x = tl.load(data + f * stride_f + src, mask=src < T, other=0)
        acc += x.to(tl.float32)
    tl.store(out + dm * T + t, acc, mask=t < T)


SAMPS_PER_PROGRAM = 32


def run(data: torch.Tensor, delays: torch.Tensor) -> torch.Tensor:
    F, T = data.shape
    D = delays.shape[0]
    out = torch.empty((D, T), device=data.device, dtype=torch.float32)
    grid = (triton.cdiv(T, SAMPS_PER_PROGRAM), D)
    _dedisperse[grid](data, delays, out, F, T, data.stride(0), BLOCK_T=SAMPS_PER_PROGRAM)
    return out
