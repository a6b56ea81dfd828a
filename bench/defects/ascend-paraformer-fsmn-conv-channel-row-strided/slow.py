"""FunASR SANM FSMN memory block as a triton-ascend kernel: masked depthwise Conv1d (kernel 11, centred)
over time plus the masked residual, written against the [B, D, T] channel-by-time view that the
Conv1d in forward_fsmn sees."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40   # Atlas 800T A2 (910B3)
KERNEL_SIZE = 11


@triton.jit
def _frame_mask(mask_ptr, b, src, T):
    valid = (src >= 0) & (src < T)
    return tl.load(mask_ptr + b * T + src, mask=valid, other=0.0).to(tl.float32), valid


@triton.jit
def fsmn_memory_kernel(v_ptr, mask_ptr, w_ptr, out_ptr, B, D, T,
                       stride_b, stride_c, stride_t, out_stride_b, out_stride_c, out_stride_t,
                       NUM_CORES: tl.constexpr, KSIZE: tl.constexpr, LEFT: tl.constexpr,
                       BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    num_rows = B * D
    for row in range(pid, num_rows, NUM_CORES):
        b = row // D
        c = row % D
        for t0 in range(0, T, BLOCK_T):
            t = t0 + tl.arange(0, BLOCK_T)
            acc = tl.zeros([BLOCK_T], dtype=tl.float32)
            center = tl.zeros([BLOCK_T], dtype=tl.float32)
            center_m = tl.zeros([BLOCK_T], dtype=tl.float32)
            for k in tl.static_range(KSIZE):
                src = t + (k - LEFT)
                m, valid = _frame_mask(mask_ptr, b, src, T)
                x = tl.load(v_ptr + b * stride_b + c * stride_c + src * stride_t, mask=valid, other=0.0)
                xm = x.to(tl.float32) * m
                wk = tl.load(w_ptr + k * D + c).to(tl.float32)
                acc += wk * xm
                if k == LEFT:
                    center = xm
                    center_m = m
            y = (acc + center) * center_m
            tl.store(out_ptr + b * out_stride_b + c * out_stride_c + t * out_stride_t,
                     y.to(out_ptr.dtype.element_ty), mask=t < T)


def run(v: torch.Tensor, mask: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    B, T, D = v.shape
    out = torch.empty_like(v)
    x = v.transpose(1, 2)
    y = out.transpose(1, 2)
    opts = {"BLOCK_T": min(512, triton.next_power_of_2(T))}
    fsmn_memory_kernel[(NUM_VECTOR_CORES,)](x, mask, weight, y, B, D, T, *x.stride(), *y.stride(),
                                            NUM_CORES=NUM_VECTOR_CORES, KSIZE=KERNEL_SIZE,
                                            LEFT=(KERNEL_SIZE - 1) // 2, **opts)
    return out
