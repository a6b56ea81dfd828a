"""Fused RoPE (sbhd) ported from TransformerEngine's CUDA kernel: one program per (position, sample), looping over the heads."""
import torch
import triton
import triton.language as tl


@triton.jit
def _rotate_pair(x1, x2, cos1, sin1, cos2, sin2):
    # out[:half] = x1 * cos - x2 * sin ; out[half:] = x2 * cos + x1 * sin
    return x1 * cos1[None, :] - x2 * sin1[None, :], x2 * cos2[None, :] + x1 * sin2[None, :]


@triton.jit
def rope_sbhd_fwd_kernel(t_ptr, freqs_ptr, out_ptr, H, stride_s, stride_b, stride_h, stride_fs,
                         HALF: tl.constexpr, BLOCK_H: tl.constexpr):
    s = tl.program_id(0)
    b = tl.program_id(1)
    d = tl.arange(0, HALF)
    row = s * stride_s + b * stride_b
    for h0 in range(0, H, BLOCK_H):
        h = h0 + tl.arange(0, BLOCK_H)
        hmask = (h < H)[:, None]
        offs = row + h[:, None] * stride_h + d[None, :]
        x1 = tl.load(t_ptr + offs, mask=hmask, other=0.0).to(tl.float32)
        x2 = tl.load(t_ptr + offs + HALF, mask=hmask, other=0.0).to(tl.float32)
        # angles of this position (both halves), as sincosf(freqs[s_id * d2 + d_id]) in the CUDA kernel
        f1 = tl.load(freqs_ptr + s * stride_fs + d)
        f2 = tl.load(freqs_ptr + s * stride_fs + HALF + d)
        o1, o2 = _rotate_pair(x1, x2, tl.cos(f1), tl.sin(f1), tl.cos(f2), tl.sin(f2))
        tl.store(out_ptr + offs, o1.to(out_ptr.dtype.element_ty), mask=hmask)
        tl.store(out_ptr + offs + HALF, o2.to(out_ptr.dtype.element_ty), mask=hmask)


def run(t: torch.Tensor, freqs: torch.Tensor) -> torch.Tensor:
    S, B, H, D = t.shape
    out = torch.empty_like(t)
    BLOCK_H = min(8, triton.next_power_of_2(H))
    rope_sbhd_fwd_kernel[(S, B)](t, freqs, out, H, t.stride(0), t.stride(1), t.stride(2), freqs.stride(0),
                                 HALF=D // 2, BLOCK_H=BLOCK_H, num_warps=4)
    return out
