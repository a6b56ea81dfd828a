"""Varlen causal conv1d + SiLU for triton-ascend: one launch over (sequence, channel block), bounds read from query_start_loc."""
import torch
import triton
import triton.language as tl


@triton.jit
def conv1d_varlen_kernel(x_ptr, w_ptr, b_ptr, out_ptr, qsl_ptr, D, W: tl.constexpr, BLOCK_T: tl.constexpr,
                         BLOCK_D: tl.constexpr):
    seq = tl.program_id(0)
    start = tl.load(qsl_ptr + seq)
    length = tl.load(qsl_ptr + seq + 1) - start
    d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    dmask = d < D
    bias = tl.load(b_ptr + d, mask=dmask, other=0.0).to(tl.float32)
    for t0 in range(0, length, BLOCK_T):
        t = t0 + tl.arange(0, BLOCK_T)
        acc = tl.zeros((BLOCK_T, BLOCK_D), dtype=tl.float32) + bias[None, :]
        for k in tl.static_range(W):
            src = t - (W - 1) + k
            m = (src[:, None] >= 0) & (src[:, None] < length) & dmask[None, :]
            xv = tl.load(x_ptr + (start + src)[:, None] * D + d[None, :], mask=m, other=0.0).to(tl.float32)
            acc += xv * tl.load(w_ptr + d * W + k, mask=dmask, other=0.0).to(tl.float32)[None, :]
        y = acc * tl.sigmoid(acc)
        tl.store(out_ptr + (start + t)[:, None] * D + d[None, :], y.to(out_ptr.dtype.element_ty),
                 mask=(t[:, None] < length) & dmask[None, :])


def run(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, qsl: torch.Tensor) -> torch.Tensor:
    T, D = x.shape
    out = torch.empty_like(x)
    n_seqs = qsl.shape[0] - 1
    conv1d_varlen_kernel[(n_seqs, triton.cdiv(D, 256))](x, w, b, out, qsl, D, W=w.shape[1], BLOCK_T=32, BLOCK_D=256)
    return out
