"""DLinear (individual): per-channel seasonal and trend linear projections, summed."""
import torch
import triton
import triton.language as tl


@triton.jit
def _dlinear_individual(xs, xt, ws, bs, wt, bt, out, B, C, S, P, n_pb,
                        BLOCK_B: tl.constexpr, BLOCK_P: tl.constexpr, BLOCK_S: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    bb = tl.arange(0, BLOCK_B)
    ss = tl.arange(0, BLOCK_S)
    bmask = bb < B
    for tile in range(pid, C * n_pb, nprog):
        c = tile // n_pb
        pp = (tile - c * n_pb) * BLOCK_P + tl.arange(0, BLOCK_P)
        pmask = pp < P
        acc = tl.zeros([BLOCK_B, BLOCK_P], dtype=tl.float32)
        for s0 in range(0, S, BLOCK_S):
            smask = (s0 + ss) < S
            x_off = bb[:, None] * (C * S) + c * S + s0 + ss[None, :]
            w_off = c * (P * S) + pp[:, None] * S + s0 + ss[None, :]
            xm = bmask[:, None] & smask[None, :]
            wm = pmask[:, None] & smask[None, :]
            acc += tl.dot(tl.load(xs + x_off, mask=xm, other=0.0), tl.trans(tl.load(ws + w_off, mask=wm, other=0.0)))
            acc += tl.dot(tl.load(xt + x_off, mask=xm, other=0.0), tl.trans(tl.load(wt + w_off, mask=wm, other=0.0)))
        bias = tl.load(bs + c * P + pp, mask=pmask, other=0.0).to(tl.float32)
        bias += tl.load(bt + c * P + pp, mask=pmask, other=0.0).to(tl.float32)
        y = acc + bias[None, :]
        tl.store(out + bb[:, None] * (C * P) + c * P + pp[None, :], y.to(out.dtype.element_ty),
                 mask=bmask[:, None] & pmask[None, :])


def run(seasonal, trend, w_s, b_s, w_t, b_t) -> torch.Tensor:
    B, C, S = seasonal.shape
    P = w_s.shape[1]
    out = torch.empty((B, C, P), device=seasonal.device, dtype=seasonal.dtype)
    BLOCK_P, BLOCK_S = 128, 128
    n_pb = triton.cdiv(P, BLOCK_P)
    grid = (min(20, C * n_pb),)
    _dlinear_individual[grid](seasonal, trend, w_s, b_s, w_t, b_t, out, B, C, S, P, n_pb,
                              BLOCK_B=max(16, triton.next_power_of_2(B)), BLOCK_P=BLOCK_P, BLOCK_S=BLOCK_S)
    return out
