"""DeepFM factorization-machine cross term as a triton-ascend kernel: each program reduces the
[F_PAD, K] field tile of one sample."""
import torch
import triton
import triton.language as tl


@triton.jit
def _fm_cross(v):
    s = tl.sum(v, axis=0)
    sq = tl.sum(v * v, axis=0)
    return 0.5 * tl.sum(s * s - sq, axis=0)


@triton.jit
def fm_interaction_kernel(emb_ptr, out_ptr, B, F, K, stride_b, stride_f,
                          F_PAD: tl.constexpr, K_PAD: tl.constexpr):
    b = tl.program_id(0)
    f = tl.arange(0, F_PAD)
    k = tl.arange(0, K_PAD)
    tile_mask = (f[:, None] < F) & (k[None, :] < K)
    tile_offs = f[:, None] * stride_f + k[None, :]
    v = tl.load(emb_ptr + b * stride_b + tile_offs, mask=tile_mask, other=0.0)
    tl.store(out_ptr + b, _fm_cross(v))


def run(emb: torch.Tensor) -> torch.Tensor:
    B, F, K = emb.shape
    emb = emb.contiguous()
    out = torch.empty(B, dtype=torch.float32, device=emb.device)
    f_pad = triton.next_power_of_2(F)
    k_pad = triton.next_power_of_2(K)
    grid = (B,)
    fm_interaction_kernel[grid](emb, out, B, F, K, emb.stride(0), emb.stride(1), F_PAD=f_pad, K_PAD=k_pad)
    return out
