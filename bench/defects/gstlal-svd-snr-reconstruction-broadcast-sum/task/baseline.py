"""GstLAL SVD reconstruction: per-template SNR = basis-filter outputs x reconstruction matrix."""
import torch
import triton
import triton.language as tl

BLOCK_T = 32
BLOCK_C = 32
BLOCK_B = 16


@triton.jit
def _mix_snr(basis, mix, snr, T, B, C,
             BLOCK_T: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_B: tl.constexpr):
    pid_t = tl.program_id(0)
    pid_c = tl.program_id(1)
    t = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    c = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    t_ok = t < T
    c_ok = c < C
    acc = tl.zeros([BLOCK_T, BLOCK_C], dtype=tl.float32)
    for b0 in range(0, B, BLOCK_B):
        b = b0 + tl.arange(0, BLOCK_B)
        b_ok = b < B
        x = tl.load(basis + t[:, None] * B + b[None, :], mask=t_ok[:, None] & b_ok[None, :], other=0.0)
        w = tl.load(mix + c[:, None] * B + b[None, :], mask=c_ok[:, None] & b_ok[None, :], other=0.0)
        # snr[t, c] += <basis row t, coefficient row c> over this slice of basis filters
        acc = tl.dot(x, tl.trans(w), acc)
    tl.store(snr + t[:, None] * C + c[None, :], acc, mask=t_ok[:, None] & c_ok[None, :])


def run(basis: torch.Tensor, mix: torch.Tensor) -> torch.Tensor:
    T, B = basis.shape
    C = mix.shape[0]
    snr = torch.empty((T, C), device=basis.device, dtype=basis.dtype)
    grid = (triton.cdiv(T, BLOCK_T), triton.cdiv(C, BLOCK_C))
    _mix_snr[grid](basis, mix, snr, T, B, C,
                   BLOCK_T=BLOCK_T, BLOCK_C=BLOCK_C, BLOCK_B=BLOCK_B, num_warps=4)
    return snr
