"""GPT-OSS swigluoai for the MoE expert MLP as a triton-ascend kernel: programs sized to the vector cores,
each takes every nprog-th token row and walks its columns in UB-sized blocks."""
import torch
import triton
import triton.language as tl

ALPHA = 1.702
LIMIT = 7.0


@triton.jit
def _swiglu_oai(gate, up, alpha, limit):
    gate = tl.minimum(gate, limit)
    up = tl.minimum(tl.maximum(up, -limit), limit)
    return (up + 1.0) * gate * tl.sigmoid(alpha * gate)


@triton.jit
def swiglu_oai_kernel(x_ptr, out_ptr, n_rows, inter, alpha, limit, BLOCK_I: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for row in range(pid, n_rows, nprog):
        x_row = x_ptr + row * 2 * inter
        o_row = out_ptr + row * inter
        for c0 in range(0, inter, BLOCK_I):
            pair = 2 * c0 + tl.arange(0, 2 * BLOCK_I)
            xy = tl.load(x_row + pair, mask=pair < 2 * inter, other=0.0).to(tl.float32)
            gate, up = tl.split(tl.reshape(xy, (BLOCK_I, 2)))
            cols = c0 + tl.arange(0, BLOCK_I)
            y = _swiglu_oai(gate, up, alpha, limit)
            tl.store(o_row + cols, y.to(out_ptr.dtype.element_ty), mask=cols < inter)


def run(x: torch.Tensor) -> torch.Tensor:
    n_rows, inter = x.shape[0], x.shape[1] // 2
    out = torch.empty((n_rows, inter), dtype=x.dtype, device=x.device)
    num_cores = 40
    block_i = min(1024, triton.next_power_of_2(inter))
    grid = (min(num_cores, n_rows),)
    swiglu_oai_kernel[grid](x, out, n_rows, inter, ALPHA, LIMIT, BLOCK_I=block_i)
    return out
