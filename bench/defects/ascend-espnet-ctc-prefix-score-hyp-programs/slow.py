"""CTC prefix scores (ESPnet CTCPrefixScoreTH, full vocabulary): forward variables r^n, r^b and log psi per label."""
import torch
import triton
import triton.language as tl

LOGZERO = tl.constexpr(-10000000000.0)
BLOCK = 512


@triton.jit
def _logaddexp(a, b):
    top = tl.maximum(a, b)
    return top + tl.log(tl.exp(a - top) + tl.exp(b - top))


@triton.jit
def _score_tile(x, r_prev, r, log_psi, n, c0, last_id, T, N, O, start, BLOCK: tl.constexpr):
    c = c0 + tl.arange(0, BLOCK)
    ok = c < O
    label = c.to(tl.float32)
    is_last = label == last_id
    plane = N * O
    row = n * O + c
    fill = tl.full((BLOCK,), LOGZERO, tl.float32)
    for t in range(0, start):
        tl.store(r + (2 * t) * plane + row, fill, mask=ok)
        tl.store(r + (2 * t + 1) * plane + row, fill, mask=ok)
    r_n = fill
    r_b = fill
    psi = fill
    for t in range(start, T):
        prev_n = tl.load(r_prev + (2 * t - 2) * N + n)
        prev_b = tl.load(r_prev + (2 * t - 1) * N + n)
        phi = tl.where(is_last, prev_b, _logaddexp(prev_n, prev_b))
        x_n = tl.load(x + t * plane + row, mask=ok, other=0.0)
        x_b = tl.load(x + (T + t) * plane + row, mask=ok, other=0.0)
        psi = _logaddexp(psi, phi + x_n)
        r_b = _logaddexp(r_n, r_b) + x_b
        r_n = _logaddexp(r_n, phi) + x_n
        tl.store(r + (2 * t) * plane + row, r_n, mask=ok)
        tl.store(r + (2 * t + 1) * plane + row, r_b, mask=ok)
    end_sum = _logaddexp(tl.load(r_prev + (2 * T - 2) * N + n), tl.load(r_prev + (2 * T - 1) * N + n))
    psi = tl.where(label == O - 1, end_sum, psi)
    psi = tl.where(label == 0.0, LOGZERO, psi)
    tl.store(log_psi + row, psi, mask=ok)


@triton.jit
def _ctc_prefix_score(x, r_prev, last, r, log_psi, T, N, O, start, BLOCK: tl.constexpr):
    n = tl.program_id(0)
    last_id = tl.load(last + n).to(tl.float32)
    for c0 in range(0, O, BLOCK):
        _score_tile(x, r_prev, r, log_psi, n, c0, last_id, T, N, O, start, BLOCK)


def run(x: torch.Tensor, r_prev: torch.Tensor, last: torch.Tensor, step: int):
    _, T, N, O = x.shape
    r = torch.empty((T, 2, N, O), device=x.device, dtype=torch.float32)
    log_psi = torch.empty((N, O), device=x.device, dtype=torch.float32)
    _ctc_prefix_score[(N,)](x, r_prev, last, r, log_psi, T, N, O, max(step, 1), BLOCK=BLOCK)
    return r, log_psi
