"""experts_int8 weight quantization: one launch per weight tensor over every expert's channels."""
import torch
import triton
import triton.language as tl


@triton.jit
def _channel_scale(x):
    amax = tl.max(tl.abs(x), axis=1)
    return amax * (1.0 / 127.0)


@triton.jit
def channel_int8_quant_kernel(w_ptr, q_ptr, s_ptr, rows, cols,
                              ROWS_PER_PROG: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    r = pid * ROWS_PER_PROG + tl.arange(0, ROWS_PER_PROG)
    c = tl.arange(0, BLOCK_C)
    rmask = r < rows
    mask = rmask[:, None] & (c < cols)[None, :]
    offs = r[:, None] * cols + c[None, :]
    x = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    scale = _channel_scale(x)
    q = tl.math.div_rn(x, tl.broadcast_to(scale[:, None], x.shape))
    q = tl.minimum(tl.maximum(tl.floor(q + 0.5), -127.0), 127.0)
    tl.store(q_ptr + offs, q.to(tl.int8), mask=mask)
    tl.store(s_ptr + r, scale, mask=rmask)


def _quantize_experts(w: torch.Tensor) -> tuple:
    E, R, C = w.shape
    q = torch.empty((E, R, C), device=w.device, dtype=torch.int8)
    scales = torch.empty((E, R), device=w.device, dtype=torch.float32)
    launch = {"ROWS_PER_PROG": 4, "BLOCK_C": triton.next_power_of_2(C), "num_warps": 4}
    grid = (triton.cdiv(E * R, launch["ROWS_PER_PROG"]),)
    channel_int8_quant_kernel[grid](w, q, scales, E * R, C, **launch)
    return q, scales


def run(w13: torch.Tensor, w2: torch.Tensor) -> tuple:
    q13, s13 = _quantize_experts(w13)
    q2, s2 = _quantize_experts(w2)
    return q13, s13, q2, s2
