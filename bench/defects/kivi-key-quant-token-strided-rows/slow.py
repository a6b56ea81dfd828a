"""KIVI key quantization: keys are quantized along the token axis, so each (batch, head, channel) row of
key_states.transpose(2, 3) is one program that walks its tokens through the view's strides."""
import torch
import triton
import triton.language as tl


@triton.jit
def _group_minmax_scale(x, NUM_GROUPS: tl.constexpr, GROUP: tl.constexpr, QMAX: tl.constexpr):
    xg = tl.reshape(x, (NUM_GROUPS, GROUP))
    mn = tl.min(xg, axis=1)
    mx = tl.max(xg, axis=1)
    scale = tl.math.div_rn(mx - mn, tl.full(mn.shape, QMAX, tl.float32))
    return xg, mn, scale


@triton.jit
def _quantize_codes(xg, mn, scale, QMAX: tl.constexpr):
    q = tl.math.div_rn(xg - mn[:, None], tl.broadcast_to(scale[:, None], xg.shape))
    q = tl.floor(q + 0.5)
    q = tl.minimum(tl.maximum(q, 0.0), QMAX)
    return q.to(tl.int32)


@triton.jit
def kivi_key_quant_kernel(k_ptr, code_ptr, scale_ptr, mn_ptr, T,
                          stride_kbh, stride_kd, stride_kt,
                          BLOCK_T: tl.constexpr, GROUP: tl.constexpr, BITS: tl.constexpr):
    bh = tl.program_id(0)
    d = tl.program_id(1)
    HEAD_DIM = tl.num_programs(1)
    FEAT_PER_INT: tl.constexpr = 32 // BITS
    NUM_GROUPS: tl.constexpr = BLOCK_T // GROUP
    QMAX: tl.constexpr = (1 << BITS) - 1
    T8 = T // FEAT_PER_INT
    TG = T // GROUP
    row = k_ptr + bh * stride_kbh + d * stride_kd
    code_row = code_ptr + (bh * HEAD_DIM + d) * T8
    scale_row = scale_ptr + (bh * HEAD_DIM + d) * TG
    mn_row = mn_ptr + (bh * HEAD_DIM + d) * TG
    shifts = tl.arange(0, FEAT_PER_INT) * BITS
    for t0 in range(0, T, BLOCK_T):
        t = t0 + tl.arange(0, BLOCK_T)
        x = tl.load(row + t * stride_kt, mask=t < T, other=0.0)
        xg, mn, scale = _group_minmax_scale(x.to(tl.float32), NUM_GROUPS, GROUP, QMAX)
        q = _quantize_codes(xg, mn, scale, QMAX)
        q = tl.reshape(q, (BLOCK_T // FEAT_PER_INT, FEAT_PER_INT))
        packed = tl.sum(q << shifts[None, :], axis=1)
        w = t0 // FEAT_PER_INT + tl.arange(0, BLOCK_T // FEAT_PER_INT)
        tl.store(code_row + w, packed, mask=w < T8)
        gi = t0 // GROUP + tl.arange(0, NUM_GROUPS)
        tl.store(scale_row + gi, scale.to(scale_ptr.dtype.element_ty), mask=gi < TG)
        tl.store(mn_row + gi, mn.to(mn_ptr.dtype.element_ty), mask=gi < TG)


def run(key_states: torch.Tensor) -> tuple:
    B, H, T, D = key_states.shape
    group, bits = 32, 4
    kt = key_states.reshape(B * H, T, D).transpose(1, 2)
    code = torch.empty((B, H, D, T // (32 // bits)), device=kt.device, dtype=torch.int32)
    scale = torch.empty((B, H, D, T // group), device=kt.device, dtype=key_states.dtype)
    mn = torch.empty_like(scale)
    BLOCK_T = 256
    grid = (B * H, D)
    kivi_key_quant_kernel[grid](kt, code, scale, mn, T, kt.stride(0), kt.stride(1), kt.stride(2),
                                BLOCK_T=BLOCK_T, GROUP=group, BITS=bits, num_warps=4)
    return code, scale, mn
