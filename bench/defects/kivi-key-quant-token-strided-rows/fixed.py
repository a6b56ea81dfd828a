"""KIVI key quantization: one program per (batch*head, 64-token block) over [tokens, head_dim] tiles."""
import torch
import triton
import triton.language as tl


@triton.jit
def _group_minmax_scale(x, NUM_GROUPS: tl.constexpr, GROUP: tl.constexpr, HEAD_DIM: tl.constexpr,
                        QMAX: tl.constexpr):
    xg = tl.reshape(x, (NUM_GROUPS, GROUP, HEAD_DIM))
    mn = tl.min(xg, axis=1)
    mx = tl.max(xg, axis=1)
    scale = tl.math.div_rn(mx - mn, tl.full(mn.shape, QMAX, tl.float32))
    return xg, mn, scale


@triton.jit
def _quantize_codes(xg, mn, scale, QMAX: tl.constexpr):
    q = tl.math.div_rn(xg - mn[:, None, :], tl.broadcast_to(scale[:, None, :], xg.shape))
    q = tl.floor(q + 0.5)
    q = tl.minimum(tl.maximum(q, 0.0), QMAX)
    return q.to(tl.int32)


@triton.jit
def kivi_key_quant_kernel(k_ptr, code_ptr, scale_ptr, mn_ptr, T,
                          stride_kbh, stride_kt,
                          HEAD_DIM: tl.constexpr, BLOCK_T: tl.constexpr, GROUP: tl.constexpr,
                          BITS: tl.constexpr):
    bh = tl.program_id(0)
    tb = tl.program_id(1)
    FEAT_PER_INT: tl.constexpr = 32 // BITS
    NUM_GROUPS: tl.constexpr = BLOCK_T // GROUP
    QMAX: tl.constexpr = (1 << BITS) - 1
    t = tb * BLOCK_T + tl.arange(0, BLOCK_T)
    d = tl.arange(0, HEAD_DIM)
    tmask = t < T
    x = tl.load(k_ptr + bh * stride_kbh + t[:, None] * stride_kt + d[None, :], mask=tmask[:, None], other=0.0)
    xg, mn, scale = _group_minmax_scale(x.to(tl.float32), NUM_GROUPS, GROUP, HEAD_DIM, QMAX)
    q = _quantize_codes(xg, mn, scale, QMAX)
    q = tl.reshape(q, (BLOCK_T // FEAT_PER_INT, FEAT_PER_INT, HEAD_DIM))
    shifts = tl.arange(0, FEAT_PER_INT) * BITS
    packed = tl.sum(q << shifts[None, :, None], axis=1)

    T8 = T // FEAT_PER_INT
    TG = T // GROUP
    w = tb * (BLOCK_T // FEAT_PER_INT) + tl.arange(0, BLOCK_T // FEAT_PER_INT)
    tl.store(code_ptr + bh * HEAD_DIM * T8 + d[None, :] * T8 + w[:, None], packed, mask=(w < T8)[:, None])
    gi = tb * NUM_GROUPS + tl.arange(0, NUM_GROUPS)
    soffs = bh * HEAD_DIM * TG + d[None, :] * TG + gi[:, None]
    smask = (gi < TG)[:, None]
    tl.store(scale_ptr + soffs, scale.to(scale_ptr.dtype.element_ty), mask=smask)
    tl.store(mn_ptr + soffs, mn.to(mn_ptr.dtype.element_ty), mask=smask)


def run(key_states: torch.Tensor) -> tuple:
    B, H, T, D = key_states.shape
    group, bits = 32, 4
    k = key_states.reshape(B * H, T, D)
    code = torch.empty((B, H, D, T // (32 // bits)), device=k.device, dtype=torch.int32)
    scale = torch.empty((B, H, D, T // group), device=k.device, dtype=key_states.dtype)
    mn = torch.empty_like(scale)
    BLOCK_T = 64
    grid = (B * H, triton.cdiv(T, BLOCK_T))
    kivi_key_quant_kernel[grid](k, code, scale, mn, T, k.stride(0), k.stride(1),
                                HEAD_DIM=D, BLOCK_T=BLOCK_T, GROUP=group, BITS=bits, num_warps=4)
    return code, scale, mn
