"""SmoothQuant calibration: running per-channel activation absmax and smoothing factors."""
import torch
import triton
import triton.language as tl

ALPHA = 0.5
NUM_VECTOR_CORES = 40


@triton.jit
def _act_scales_kernel(x_ptr, amax_in, wmax_in, amax_out, scale_out, T, C, stride_t, alpha,
                       BLOCK_C: tl.constexpr, BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_cblocks = tl.cdiv(C, BLOCK_C)
    for cb in range(pid, n_cblocks, nprog):
        chans = cb * BLOCK_C + tl.arange(0, BLOCK_C)
        cmask = chans < C
        amax = tl.load(amax_in + chans, mask=cmask, other=1.0)
        for t0 in range(0, T, BLOCK_T):
            toks = t0 + tl.arange(0, BLOCK_T)
            mask = cmask[:, None] & (toks < T)[None, :]
            x = tl.load(x_ptr + chans[:, None] + toks[None, :] * stride_t, mask=mask, other=0.0)
            amax = tl.maximum(amax, tl.max(tl.abs(x.to(tl.float32)), axis=1))
        wmax = tl.maximum(tl.load(wmax_in + chans, mask=cmask, other=1.0), 1e-5)
        s = tl.exp(alpha * tl.log(amax) - (1.0 - alpha) * tl.log(wmax))
        tl.store(amax_out + chans, amax, mask=cmask)
        tl.store(scale_out + chans, tl.maximum(s, 1e-5), mask=cmask)


def run(x: torch.Tensor, amax_old: torch.Tensor, w_amax: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    T, C = x.shape
    amax = torch.empty(C, device=x.device, dtype=torch.float32)
    scales = torch.empty(C, device=x.device, dtype=torch.float32)
    BLOCK_C, BLOCK_T = 128, 64
    grid = (min(triton.cdiv(C, BLOCK_C), NUM_VECTOR_CORES),)
    _act_scales_kernel[grid](x, amax_old, w_amax, amax, scales, T, C, x.stride(0), ALPHA,
                             BLOCK_C=BLOCK_C, BLOCK_T=BLOCK_T)
    return amax, scales
