"""SmoothQuant calibration: running per-channel activation absmax and smoothing factors."""
import torch
import triton
import triton.language as tl

ALPHA = 0.5
NUM_VECTOR_CORES = 40


@triton.jit
def _act_scales_kernel(x_ptr, amax_in, wmax_in, amax_out, scale_out, T, C, stride_t, alpha,
                       BLOCK_T: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_cblocks = tl.cdiv(C, BLOCK_C)
    for cb in range(pid, n_cblocks, nprog):
        cols = cb * BLOCK_C + tl.arange(0, BLOCK_C)
        cmask = cols < C
        acc = tl.zeros([BLOCK_T, BLOCK_C], dtype=tl.float32)
        for t0 in range(0, T, BLOCK_T):
            toks = t0 + tl.arange(0, BLOCK_T)
            mask = (toks < T)[:, None] & cmask[None, :]
            x = tl.load(x_ptr + toks[:, None] * stride_t + cols[None, :], mask=mask, other=0.0)
            acc = tl.maximum(acc, tl.abs(x.to(tl.float32)))
        amax = tl.maximum(tl.max(acc, axis=0), tl.load(amax_in + cols, mask=cmask, other=1.0))
        wmax = tl.maximum(tl.load(wmax_in + cols, mask=cmask, other=1.0), 1e-5)
        s = tl.exp(alpha * tl.log(amax) - (1.0 - alpha) * tl.log(wmax))
        tl.store(amax_out + cols, amax, mask=cmask)
        tl.store(scale_out + cols, tl.maximum(s, 1e-5), mask=cmask)


def run(x: torch.Tensor, amax_old: torch.Tensor, w_amax: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    T, C = x.shape
    amax = torch.empty(C, device=x.device, dtype=torch.float32)
    scales = torch.empty(C, device=x.device, dtype=torch.float32)
    BLOCK_T, BLOCK_C = 64, 128
    grid = (min(triton.cdiv(C, BLOCK_C), NUM_VECTOR_CORES),)
    _act_scales_kernel[grid](x, amax_old, w_amax, amax, scales, T, C, x.stride(0), ALPHA,
                             BLOCK_T=BLOCK_T, BLOCK_C=BLOCK_C)
    return amax, scales
