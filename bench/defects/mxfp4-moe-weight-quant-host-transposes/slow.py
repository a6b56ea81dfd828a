"""MXFP4 quantization of expert weights along K: the weights are moved to [E, N, K] so that every
32-element block is contiguous, quantized row by row, and the codes and scales moved back to [E, K, N]."""
import torch
import triton
import triton.language as tl


@triton.jit
def _e8m0_exponent(amax, EMAX: tl.constexpr):
    bits = amax.to(tl.int32, bitcast=True)
    e = ((bits >> 23) & 0xFF) - 127 - EMAX
    e = tl.minimum(tl.maximum(e, -127), 125)
    inv = ((127 - e) << 23).to(tl.float32, bitcast=True)
    return e, inv


@triton.jit
def _e2m1_code(v):
    a = tl.abs(v)
    code = (a > 0.25).to(tl.int32) + (a >= 0.75).to(tl.int32) + (a > 1.25).to(tl.int32)
    code += (a >= 1.75).to(tl.int32) + (a > 2.5).to(tl.int32) + (a >= 3.5).to(tl.int32)
    code += (a > 5.0).to(tl.int32)
    return code | ((v < 0).to(tl.int32) << 3)


@triton.jit
def mxfp4_quant_rows_kernel(x_ptr, q_ptr, s_ptr, R, K,
                            BLOCK_R: tl.constexpr, BLOCK_K: tl.constexpr, MX_BLOCK: tl.constexpr,
                            EMAX: tl.constexpr):
    rb = tl.program_id(0)
    kb = tl.program_id(1)
    GROUPS: tl.constexpr = BLOCK_K // MX_BLOCK
    rr = rb * BLOCK_R + tl.arange(0, BLOCK_R)
    rk = kb * BLOCK_K + tl.arange(0, BLOCK_K)
    rmask = rr < R
    x = tl.load(x_ptr + rr[:, None] * K + rk[None, :], mask=rmask[:, None] & (rk < K)[None, :],
                other=0.0).to(tl.float32)
    xg = tl.reshape(x, (BLOCK_R, GROUPS, MX_BLOCK))
    amax = tl.max(tl.abs(xg), axis=2)
    ex, inv = _e8m0_exponent(amax, EMAX)
    code = _e2m1_code(xg * inv[:, :, None])
    code = tl.reshape(code, (BLOCK_R, BLOCK_K // 2, 2))
    nibble = tl.arange(0, 2) * 4
    packed = tl.sum(code << nibble[None, None, :], axis=2)

    rq = kb * (BLOCK_K // 2) + tl.arange(0, BLOCK_K // 2)
    tl.store(q_ptr + rr[:, None] * (K // 2) + rq[None, :], packed.to(tl.uint8),
             mask=rmask[:, None] & (rq < K // 2)[None, :])
    rs = kb * GROUPS + tl.arange(0, GROUPS)
    tl.store(s_ptr + rr[:, None] * (K // MX_BLOCK) + rs[None, :], (ex + 127).to(tl.uint8),
             mask=rmask[:, None] & (rs < K // MX_BLOCK)[None, :])


def run(w: torch.Tensor) -> tuple:
    E, K, N = w.shape
    mx_block = 32
    wt = w.transpose(1, 2).contiguous()
    q_t = torch.empty((E, N, K // 2), device=w.device, dtype=torch.uint8)
    s_t = torch.empty((E, N, K // mx_block), device=w.device, dtype=torch.uint8)
    BLOCK_R, BLOCK_K = 16, 256
    grid = (triton.cdiv(E * N, BLOCK_R), triton.cdiv(K, BLOCK_K))
    mxfp4_quant_rows_kernel[grid](wt, q_t, s_t, E * N, K, BLOCK_R=BLOCK_R, BLOCK_K=BLOCK_K, MX_BLOCK=mx_block,
                                  EMAX=2, num_warps=4)
    return q_t.transpose(1, 2).contiguous(), s_t.transpose(1, 2).contiguous()
