"""FunASR SANM FSMN memory block as a triton-ascend kernel: masked depthwise Conv1d (kernel 11, centred)
over time plus the masked residual, on the encoder's time-major [B, T, D] activations."""
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
def fsmn_memory_kernel(v_ptr, mask_ptr, w_ptr, out_ptr, B, T, D,
                       stride_b, stride_t, stride_d, out_stride_b, out_stride_t, out_stride_d,
                       NUM_CORES: tl.constexpr, KSIZE: tl.constexpr, LEFT: tl.constexpr,
                       BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    num_t_blocks = tl.cdiv(T, BLOCK_T)
    num_d_blocks = tl.cdiv(D, BLOCK_D)
    num_tiles = B * num_t_blocks * num_d_blocks
    for tile in range(pid, num_tiles, NUM_CORES):
        b = tile // (num_t_blocks * num_d_blocks)
        rest = tile % (num_t_blocks * num_d_blocks)
        t = (rest // num_d_blocks) * BLOCK_T + tl.arange(0, BLOCK_T)
        d = (rest % num_d_blocks) * BLOCK_D + tl.arange(0, BLOCK_D)
        dmask = d < D
        acc = tl.zeros([BLOCK_T, BLOCK_D], dtype=tl.float32)
        center = tl.zeros([BLOCK_T, BLOCK_D], dtype=tl.float32)
        center_m = tl.zeros([BLOCK_T], dtype=tl.float32)
        for k in tl.static_range(KSIZE):
            src = t + (k - LEFT)
            m, valid = _frame_mask(mask_ptr, b, src, T)
            x = tl.load(v_ptr + b * stride_b + src[:, None] * stride_t + d[None, :] * stride_d,
                        mask=valid[:, None] & dmask[None, :], other=0.0).to(tl.float32)
            xm = x * m[:, None]
            wk = tl.load(w_ptr + k * D + d, mask=dmask, other=0.0).to(tl.float32)
            acc += wk[None, :] * xm
            if k == LEFT:
                center = xm
                center_m = m
        y = (acc + center) * center_m[:, None]
        tl.store(out_ptr + b * out_stride_b + t[:, None] * out_stride_t + d[None, :] * out_stride_d,
                 y.to(out_ptr.dtype.element_ty), mask=(t[:, None] < T) & dmask[None, :])


def run(v: torch.Tensor, mask: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    B, T, D = v.shape
    out = torch.empty_like(v)
    opts = {"BLOCK_T": 16, "BLOCK_D": 512}
    fsmn_memory_kernel[(NUM_VECTOR_CORES,)](v, mask, weight, out, B, T, D, *v.stride(), *out.stride(),
                                            NUM_CORES=NUM_VECTOR_CORES, KSIZE=KERNEL_SIZE,
                                            LEFT=(KERNEL_SIZE - 1) // 2, **opts)
    return out
