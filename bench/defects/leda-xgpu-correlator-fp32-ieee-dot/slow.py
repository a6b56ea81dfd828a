"""FX-correlator X-engine: V[f, i, j] = sum_t x[f, t, i] conj(x[f, t, j]) on ci8 voltages."""
import torch
import triton
import triton.language as tl


@triton.jit
def _receiver_tile(x_chan, t0, r0, T, R, BLOCK_K: tl.constexpr, BLOCK_R: tl.constexpr):
    t = t0 + tl.arange(0, BLOCK_K)
    r = r0 + tl.arange(0, BLOCK_R)
    c = tl.arange(0, 2)
    ptrs = x_chan + (t[:, None, None] * R + r[None, :, None]) * 2 + c[None, None, :]
    ok = (t[:, None, None] < T) & (r[None, :, None] < R)
    re, im = tl.split(tl.load(ptrs, mask=ok, other=0))
    return re.to(tl.float32), im.to(tl.float32)


@triton.jit
def _xmac(x, vis, T, R, BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_j = tl.program_id(0)
    pid_i = tl.program_id(1)
    chan = tl.program_id(2)
    x_chan = x + chan * T * R * 2
    i0 = pid_i * BLOCK_I
    j0 = pid_j * BLOCK_J
    acc_re = tl.zeros((BLOCK_I, BLOCK_J), dtype=tl.float32)
    acc_im = tl.zeros((BLOCK_I, BLOCK_J), dtype=tl.float32)
    for t0 in range(0, T, BLOCK_K):
        a_i, b_i = _receiver_tile(x_chan, t0, i0, T, R, BLOCK_K, BLOCK_I)
        a_j, b_j = _receiver_tile(x_chan, t0, j0, T, R, BLOCK_K, BLOCK_J)
        a_i = tl.trans(a_i)
        b_i = tl.trans(b_i)
        acc_re = tl.dot(a_i, a_j, acc_re, input_precision="ieee")
        acc_re = tl.dot(b_i, b_j, acc_re, input_precision="ieee")
        acc_im = tl.dot(b_i, a_j, acc_im, input_precision="ieee")
        acc_im = tl.dot(-a_i, b_j, acc_im, input_precision="ieee")
    i = i0 + tl.arange(0, BLOCK_I)
    j = j0 + tl.arange(0, BLOCK_J)
    c = tl.arange(0, 2)
    out = vis + chan * R * R * 2 + (i[:, None, None] * R + j[None, :, None]) * 2 + c[None, None, :]
    ok = (i[:, None, None] < R) & (j[None, :, None] < R)
    tl.store(out, tl.join(acc_re, acc_im), mask=ok)


def run(x: torch.Tensor) -> torch.Tensor:
    F, T, R, _ = x.shape
    vis = torch.empty((F, R, R, 2), device=x.device, dtype=torch.float32)
    BLOCK_I, BLOCK_J, BLOCK_K = 64, 64, 64
    grid = (triton.cdiv(R, BLOCK_J), triton.cdiv(R, BLOCK_I), F)
    _xmac[grid](x, vis, T, R, BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, BLOCK_K=BLOCK_K, num_warps=4)
    return vis
