"""Zero-lag H1-L1 time coincidence: per H1 trigger, the L1 triggers within the light-travel window."""
import torch
import triton
import triton.language as tl

BLOCK_I = 128
BLOCK_J = 128


@triton.jit
def _first_index(t, n, x, INCLUSIVE: tl.constexpr):
    """First index j of the sorted t[0:n] with t[j] >= x (INCLUSIVE: t[j] > x), by bisection."""
    lo = n * 0
    hi = n
    while lo < hi:
        mid = (lo + hi) // 2
        v = tl.load(t + mid)
        if INCLUSIVE:
            go_right = v <= x
        else:
            go_right = v < x
        lo = tl.where(go_right, mid + 1, lo)
        hi = tl.where(go_right, hi, mid)
    return lo


@triton.jit
def _coincide(t1, snr1, t2, snr2, count, best, n1, n2, window,
              BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    pid = tl.program_id(0)
    i = pid * BLOCK_I + tl.arange(0, BLOCK_I)
    i_ok = i < n1
    ti = tl.load(t1 + i, mask=i_ok, other=0.0)
    si = tl.load(snr1 + i, mask=i_ok, other=0.0)
    si2 = si * si
    n_hit = tl.zeros([BLOCK_I], dtype=tl.int32)
    top = tl.zeros([BLOCK_I], dtype=tl.float32)
    # both lists are time-sorted: only L1 triggers near [t_first - window, t_last + window] can pair
    # (bounds taken at twice the window so that rounding of t -+ window cannot drop a pair)
    t_first = tl.load(t1 + pid * BLOCK_I)
    t_last = tl.load(t1 + tl.minimum(pid * BLOCK_I + BLOCK_I - 1, n1 - 1))
    j_lo = _first_index(t2, n2, t_first - 2.0 * window, INCLUSIVE=False)
    j_hi = _first_index(t2, n2, t_last + 2.0 * window, INCLUSIVE=True)
    for j0 in range(j_lo, j_hi, BLOCK_J):
        j = j0 + tl.arange(0, BLOCK_J)
        j_ok = j < n2
        tj = tl.load(t2 + j, mask=j_ok, other=0.0)
        sj = tl.load(snr2 + j, mask=j_ok, other=0.0)
        hit = (tl.abs(ti[:, None] - tj[None, :]) <= window) & j_ok[None, :]
        n_hit += tl.sum(hit.to(tl.int32), axis=1)
        net = si2[:, None] + (sj * sj)[None, :]
        top = tl.maximum(top, tl.max(tl.where(hit, net, 0.0), axis=1))
    tl.store(count + i, n_hit, mask=i_ok)
    tl.store(best + i, top, mask=i_ok)


def run(t1: torch.Tensor, snr1: torch.Tensor, t2: torch.Tensor, snr2: torch.Tensor, window: float) -> tuple:
    n1, n2 = t1.shape[0], t2.shape[0]
    count = torch.empty(n1, device=t1.device, dtype=torch.int32)
    best = torch.empty(n1, device=t1.device, dtype=snr1.dtype)
    grid = (triton.cdiv(n1, BLOCK_I),)
    _coincide[grid](t1, snr1, t2, snr2, count, best, n1, n2, window,
                    BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, num_warps=4)
    return count, best
