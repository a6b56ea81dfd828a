"""experts_int8 weight quantization: each expert's w13 and w2 are quantized as their own 2-D weights."""
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


def _quantize_weight(w: torch.Tensor, q: torch.Tensor, scales: torch.Tensor) -> None:
    R, C = w.shape
    launch = {"ROWS_PER_PROG": 4, "BLOCK_C": triton.next_power_of_2(C), "num_warps": 4}
    grid = (triton.cdiv(R, launch["ROWS_PER_PROG"]),)
    channel_int8_quant_kernel[grid](w, q, scales, R, C, **launch)


def run(w13: torch.Tensor, w2: torch.Tensor) -> tuple:
    E = w13.shape[0]
    q13 = torch.empty(w13.shape, device=w13.device, dtype=torch.int8)
    s13 = torch.empty(w13.shape[:2], device=w13.device, dtype=torch.float32)
    q2 = torch.empty(w2.shape, device=w2.device, dtype=torch.int8)
    s2 = torch.empty(w2.shape[:2], device=w2.device, dtype=torch.float32)
    for expert in range(E):
        _quantize_weight(w13[expert], q13[expert], s13[expert])
        _quantize_weight(w2[expert], q2[expert], s2[expert])
    return q13, s13, q2, s2
