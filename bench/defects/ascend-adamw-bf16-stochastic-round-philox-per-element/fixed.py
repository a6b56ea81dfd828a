"""AdamW with bf16 stochastic rounding on the Ascend vector cores: fp32 moments, the update in fp32,
and 16 random bits per element from Philox choose between the two bf16 neighbours."""
import math

import torch
import triton
import triton.language as tl

VECTOR_CORES = 40  # Atlas A2 (910B): 20 AI cores x 2 AIV


@triton.jit
def _round_bf16_stochastic(x, rnd):
    bits = x.to(tl.int32, bitcast=True)
    frac = bits & 0xFFFF
    down = bits & -65536
    bits = tl.where((rnd & 0xFFFF).to(tl.int32) < frac, down + 65536, down)
    return bits.to(tl.float32, bitcast=True).to(tl.bfloat16)


@triton.jit
def _adamw_update(p_ptr, g_ptr, m_ptr, v_ptr, p_out, m_out, v_out, offs, mask, rnd,
                  lr, beta1, beta2, eps, decay, step_size, inv_bc2_sqrt):
    p = tl.load(p_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    g = tl.load(g_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    m = tl.load(m_ptr + offs, mask=mask, other=0.0)
    v = tl.load(v_ptr + offs, mask=mask, other=0.0)
    m = beta1 * m + (1.0 - beta1) * g
    v = beta2 * v + (1.0 - beta2) * g * g
    p = p * decay
    p = p - step_size * m / (tl.sqrt(v) * inv_bc2_sqrt + eps)
    tl.store(m_out + offs, m, mask=mask)
    tl.store(v_out + offs, v, mask=mask)
    tl.store(p_out + offs, _round_bf16_stochastic(p, rnd), mask=mask)


@triton.jit
def adamw_sr_kernel(p_ptr, g_ptr, m_ptr, v_ptr, p_out, m_out, v_out, n, seed,
                    lr, beta1, beta2, eps, decay, step_size, inv_bc2_sqrt, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    stride = tl.num_programs(0) * BLOCK
    QUARTER: tl.constexpr = BLOCK // 4
    lane = tl.arange(0, QUARTER)
    for start in range(pid * BLOCK, n, stride):
        r0, r1, r2, r3 = tl.randint4x(seed, start // 4 + lane)
        offs = start + lane
        _adamw_update(p_ptr, g_ptr, m_ptr, v_ptr, p_out, m_out, v_out, offs, offs < n, r0,
                      lr, beta1, beta2, eps, decay, step_size, inv_bc2_sqrt)
        offs += QUARTER
        _adamw_update(p_ptr, g_ptr, m_ptr, v_ptr, p_out, m_out, v_out, offs, offs < n, r1,
                      lr, beta1, beta2, eps, decay, step_size, inv_bc2_sqrt)
        offs += QUARTER
        _adamw_update(p_ptr, g_ptr, m_ptr, v_ptr, p_out, m_out, v_out, offs, offs < n, r2,
                      lr, beta1, beta2, eps, decay, step_size, inv_bc2_sqrt)
        offs += QUARTER
        _adamw_update(p_ptr, g_ptr, m_ptr, v_ptr, p_out, m_out, v_out, offs, offs < n, r3,
                      lr, beta1, beta2, eps, decay, step_size, inv_bc2_sqrt)


def run(param, grad, exp_avg, exp_avg_sq, lr, beta1, beta2, eps, weight_decay, step, seed) -> tuple:
    n = param.numel()
    p_out = torch.empty_like(param)
    m_out = torch.empty_like(exp_avg)
    v_out = torch.empty_like(exp_avg_sq)
    step_size = lr / (1.0 - beta1 ** step)
    inv_bc2_sqrt = 1.0 / math.sqrt(1.0 - beta2 ** step)
    block = 4096
    grid = (min(VECTOR_CORES, triton.cdiv(n, block)),)
    adamw_sr_kernel[grid](param, grad, exp_avg, exp_avg_sq, p_out, m_out, v_out, n, seed,
                          lr, beta1, beta2, eps, 1.0 - lr * weight_decay, step_size, inv_bc2_sqrt, BLOCK=block)
    return p_out, m_out, v_out
