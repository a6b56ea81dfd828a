"""PWM scan (FIMO): best forward / reverse-complement log-odds score per sequence and motif."""
import torch
import triton
import triton.language as tl


@triton.jit
def _pwm_tiles(pwm, widths, m, M, KW: tl.constexpr):
    k = tl.arange(0, KW)
    live = m < M
    width = tl.load(widths + m, mask=live, other=0)
    fwd = tl.load(pwm + m[None, :] * KW + k[:, None], mask=live[None, :], other=0.0)
    src = width[None, :] - 1 - (k // 4)[:, None]
    rev = tl.load(pwm + m[None, :] * KW + src * 4 + (3 - k % 4)[:, None],
                  mask=live[None, :] & (src >= 0), other=0.0)
    return fwd, rev, width


@triton.jit
def _pwm_scan_max(seq, pwm, widths, out, L, M, stride_s,
                  KW: tl.constexpr, BLOCK_P: tl.constexpr, BLOCK_M: tl.constexpr):
    row = tl.program_id(0)
    m = tl.program_id(1) * BLOCK_M + tl.arange(0, BLOCK_M)
    fwd, rev, width = _pwm_tiles(pwm, widths, m, M, KW)
    last = L - width
    k = tl.arange(0, KW)
    best = tl.full([BLOCK_M], float("-inf"), tl.float32)
    for p0 in range(0, L, BLOCK_P):
        p = p0 + tl.arange(0, BLOCK_P)
        at = p[:, None] + (k // 4)[None, :]
        base = tl.load(seq + row * stride_s + at, mask=at < L, other=4)
        onehot = (base == (k % 4)[None, :]).to(tl.float32)
        score = tl.maximum(tl.dot(onehot, fwd, input_precision="ieee"),
                            tl.dot(onehot, rev, input_precision="ieee"))
        score = tl.where(p[:, None] <= last[None, :], score, float("-inf"))
        best = tl.maximum(best, tl.max(score, axis=0))
    tl.store(out + row * M + m, best, mask=m < M)


def run(seq: torch.Tensor, pwm: torch.Tensor, widths: torch.Tensor) -> torch.Tensor:
    N, L = seq.shape
    M, W, _ = pwm.shape
    out = torch.empty(N, M, device=seq.device, dtype=torch.float32)
    BLOCK_M = 64
    _pwm_scan_max[(N, triton.cdiv(M, BLOCK_M))](seq, pwm, widths, out, L, M, seq.stride(0),
                                               KW=4 * W, BLOCK_P=64, BLOCK_M=BLOCK_M, num_warps=4)
    return out
