"""Baseline causal_conv1d_update: grid (sequence, 256-channel block), taps unrolled with tl.static_range."""
import torch
import triton
import triton.language as tl


@triton.jit
def conv1d_update_kernel(x_ptr, state_ptr, w_ptr, bias_ptr, out_ptr, new_state_ptr, D, W: tl.constexpr,
                         BLOCK_D: tl.constexpr):
    b = tl.program_id(0)
    d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    m = d < D
    row = b * D + d
    acc = tl.load(bias_ptr + d, mask=m, other=0.0).to(tl.float32)
    for i in tl.static_range(W):
        if i < W - 1:
            v = tl.load(state_ptr + row * W + i + 1, mask=m, other=0.0)
        else:
            v = tl.load(x_ptr + row, mask=m, other=0.0)
        tl.store(new_state_ptr + row * W + i, v, mask=m)
        acc += v.to(tl.float32) * tl.load(w_ptr + d * W + i, mask=m, other=0.0).to(tl.float32)
    tl.store(out_ptr + row, (acc * tl.sigmoid(acc)).to(out_ptr.dtype.element_ty), mask=m)


def run(x, state, weight, bias) -> tuple:
    B, D, W = state.shape
    out = torch.empty_like(x)
    new_state = torch.empty_like(state)
    conv1d_update_kernel[(B, triton.cdiv(D, 256))](x, state, weight, bias, out, new_state, D, W=W, BLOCK_D=256)
    return out, new_state
