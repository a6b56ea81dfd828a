"""unpad_input for varlen attention: one program per kept token reads its [H, D] tile straight from
q's [B, H, S, D] layout (no flattened copy) and stores it as one contiguous row."""
import torch
import triton
import triton.language as tl


@triton.jit
def unpad_kernel(q_ptr, idx_ptr, out_ptr, S, H, D, stride_b, stride_h, stride_s,
                 BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr):
    t = tl.program_id(0)
    token = tl.load(idx_ptr + t)
    b = token // S
    s = token % S
    h = tl.arange(0, BLOCK_H)[:, None]
    d = tl.arange(0, BLOCK_D)[None, :]
    mask = (h < H) & (d < D)
    v = tl.load(q_ptr + b * stride_b + s * stride_s + h * stride_h + d, mask=mask)
    tl.store(out_ptr + t.to(tl.int64) * (H * D) + h * D + d, v, mask=mask)


def run(q: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    B, H, S, D = q.shape
    nnz = indices.numel()
    out = torch.empty((nnz, H, D), dtype=q.dtype, device=q.device)
    unpad_kernel[(nnz,)](q, indices, out, S, H, D, q.stride(0), q.stride(1), q.stride(2),
                         BLOCK_H=triton.next_power_of_2(H), BLOCK_D=triton.next_power_of_2(D))
    return out
