"""minimap2 chaining DP: every anchor scores the previous 64 anchors of its read and keeps the best."""
import torch
import triton
import triton.language as tl

NEG = -(1 << 30)


@triton.jit
def _chain_dp(x_ptr, y_ptr, read_off, f_ptr, p_ptr, max_dist, bw,
              SPAN: tl.constexpr, W: tl.constexpr):
    read = tl.program_id(0)
    start = tl.load(read_off + read)
    end = tl.load(read_off + read + 1)
    slot = tl.arange(0, W)
    win_x = tl.zeros([W], dtype=tl.int64)
    win_y = tl.zeros([W], dtype=tl.int32)
    win_f = tl.zeros([W], dtype=tl.int32)
    win_j = tl.full([W], -1, dtype=tl.int32)
    for i in range(start, end):
        xi = tl.load(x_ptr + i)
        yi = tl.load(y_ptr + i)
        dr64 = xi - win_x
        ok = (win_j >= 0) & (dr64 <= max_dist)
        dr = dr64.to(tl.int32)
        dq = yi - win_y
        ok = ok & (dr > 0) & (dq > 0) & (dq <= max_dist)
        dd = tl.abs(dr - dq)
        ok = ok & (dd <= bw)
        dg = tl.minimum(dr, dq)
        log_dd = tl.zeros([W], dtype=tl.int32)
        for b in tl.static_range(1, 16):
            log_dd += ((dd >> b) > 0).to(tl.int32)
        sc = tl.minimum(dg, SPAN) - (dd * SPAN) // 100 - (log_dd >> 1) + win_f
        sc = tl.where(ok, sc, NEG)
        best = tl.max(sc, axis=0)
        take = best > SPAN
        pred = tl.max(tl.where(sc == best, win_j, -1), axis=0)
        f_i = tl.where(take, best, SPAN)
        tl.store(f_ptr + i, f_i)
        tl.store(p_ptr + i, tl.where(take, pred, -1))
        put = slot == i % W
        win_x = tl.where(put, xi, win_x)
        win_y = tl.where(put, yi, win_y)
        win_f = tl.where(put, f_i, win_f)
        win_j = tl.where(put, i, win_j)


def run(x: torch.Tensor, y: torch.Tensor, read_off: torch.Tensor, max_dist: int, bw: int,
        max_iter: int, span: int) -> tuple:
    f = torch.empty_like(y)
    p = torch.empty_like(y)
    n_reads = read_off.numel() - 1
    _chain_dp[(n_reads,)](x, y, read_off, f, p, max_dist, bw, SPAN=span, W=max_iter, num_warps=1)
    return f, p
