"""EnCodec RVQ decode: each quantizer layer decodes its codes and adds them into the latent."""
import torch
import triton
import triton.language as tl


@triton.jit
def _codebook_rows(cb_ptr, q, idx, bins, dim, d, row_mask, d_mask):
    rows = (q * bins + idx).to(tl.int64)
    ptrs = cb_ptr + rows[:, None] * dim + d[None, :]
    return tl.load(ptrs, mask=row_mask[:, None] & d_mask[None, :], other=0.0)


@triton.jit
def rvq_layer_decode_kernel(codes_ptr, cb_ptr, out_ptr, q, n_frames, n_q, bins, dim,
                            RESIDUAL: tl.constexpr, BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(1)
    t = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    d = tl.arange(0, BLOCK_D)
    t_mask = t < n_frames
    d_mask = d < dim
    mask = t_mask[:, None] & d_mask[None, :]
    idx = tl.load(codes_ptr + (b * n_q + q) * n_frames + t, mask=t_mask, other=0)
    acc = _codebook_rows(cb_ptr, q, idx, bins, dim, d, t_mask, d_mask)
    out_ptrs = out_ptr + b * dim * n_frames + d[None, :] * n_frames + t[:, None]
    if RESIDUAL:
        acc += tl.load(out_ptrs, mask=mask, other=0.0)
    tl.store(out_ptrs, acc, mask=mask)


def run(codes: torch.Tensor, codebooks: torch.Tensor) -> torch.Tensor:
    B, n_q, T = codes.shape
    _, bins, dim = codebooks.shape
    out = torch.empty((B, dim, T), device=codebooks.device, dtype=codebooks.dtype)
    cfg = {"BLOCK_T": 64, "BLOCK_D": triton.next_power_of_2(dim), "num_warps": 4}
    grid = (triton.cdiv(T, cfg["BLOCK_T"]), B)
    for q in range(n_q):
        rvq_layer_decode_kernel[grid](codes, codebooks, out, q, T, n_q, bins, dim, RESIDUAL=q > 0, **cfg)
    return out
