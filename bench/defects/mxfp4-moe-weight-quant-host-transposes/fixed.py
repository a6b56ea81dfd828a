"""MXFP4 quantization of expert weights along K: [64-row, 128-column] tiles of [E, K, N] in place."""
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
def mxfp4_quant_kernel(w_ptr, q_ptr, s_ptr, K, N,
                       BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr, MX_BLOCK: tl.constexpr,
                       EMAX: tl.constexpr):
    e = tl.program_id(0)
    kb = tl.program_id(1)
    nb = tl.program_id(2)
    GROUPS: tl.constexpr = BLOCK_K // MX_BLOCK
    rk = kb * BLOCK_K + tl.arange(0, BLOCK_K)
    rn = nb * BLOCK_N + tl.arange(0, BLOCK_N)
    nmask = rn < N
    x = tl.load(w_ptr + e * K * N + rk[:, None] * N + rn[None, :],
                mask=(rk < K)[:, None] & nmask[None, :], other=0.0).to(tl.float32)
    xg = tl.reshape(x, (GROUPS, MX_BLOCK, BLOCK_N))
    amax = tl.max(tl.abs(xg), axis=1)
    ex, inv = _e8m0_exponent(amax, EMAX)
    code = _e2m1_code(xg * inv[:, None, :])
    code = tl.reshape(code, (BLOCK_K // 2, 2, BLOCK_N))
    nibble = tl.arange(0, 2) * 4
    packed = tl.sum(code << nibble[None, :, None], axis=1)

    rq = kb * (BLOCK_K // 2) + tl.arange(0, BLOCK_K // 2)
    tl.store(q_ptr + e * (K // 2) * N + rq[:, None] * N + rn[None, :], packed.to(tl.uint8),
             mask=(rq < K // 2)[:, None] & nmask[None, :])
    rs = kb * GROUPS + tl.arange(0, GROUPS)
    tl.store(s_ptr + e * (K // MX_BLOCK) * N + rs[:, None] * N + rn[None, :], (ex + 127).to(tl.uint8),
             mask=(rs < K // MX_BLOCK)[:, None] & nmask[None, :])


def run(w: torch.Tensor) -> tuple:
    E, K, N = w.shape
    mx_block = 32
    q = torch.empty((E, K // 2, N), device=w.device, dtype=torch.uint8)
    scales = torch.empty((E, K // mx_block, N), device=w.device, dtype=torch.uint8)
    BLOCK_K, BLOCK_N = 64, 128
    grid = (E, triton.cdiv(K, BLOCK_K), triton.cdiv(N, BLOCK_N))
    mxfp4_quant_kernel[grid](w, q, scales, K, N, BLOCK_K=BLOCK_K, BLOCK_N=BLOCK_N, MX_BLOCK=mx_block,
                             EMAX=2, num_warps=4)
    return q, scales
