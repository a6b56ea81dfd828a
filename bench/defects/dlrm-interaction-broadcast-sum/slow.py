"""DLRM dot interaction: one program per sample builds the [F, F] Gram matrix of its feature vectors as a broadcast product summed over D, in D chunks sized to keep the 3-D product at 8K elements."""
import torch
import triton
import triton.language as tl


@triton.jit
def _feature_tile(dense_ptr, emb_ptr, b, f, d, S, D):
    """Rows of T = [dense; emb]: row 0 is the dense vector, rows 1..S the embeddings; rows past S are zero."""
    dmask = d < D
    x_dense = tl.load(dense_ptr + b * D + d[None, :], mask=(f == 0)[:, None] & dmask[None, :], other=0.0)
    e = f - 1
    x_emb = tl.load(emb_ptr + (b * S + e)[:, None] * D + d[None, :],
                    mask=((e >= 0) & (e < S))[:, None] & dmask[None, :], other=0.0)
    return (x_dense + x_emb).to(tl.float32)


@triton.heuristics({"BLOCK_D": lambda args: max(1, 8192 // (args["BLOCK_F"] * args["BLOCK_F"]))})  # 8K-element 3-D tile
@triton.jit
def dot_interaction_kernel(dense_ptr, emb_ptr, out_ptr, S, D, OUT_W, BLOCK_F: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    f = tl.arange(0, BLOCK_F)
    z = tl.zeros([BLOCK_F, BLOCK_F], dtype=tl.float32)
    for d0 in range(0, D, BLOCK_D):
        d = d0 + tl.arange(0, BLOCK_D)
        t = _feature_tile(dense_ptr, emb_ptr, b, f, d, S, D)
        z += tl.sum(t[:, None, :] * t[None, :, :], axis=2)
        # the dense part of the output row is the dense vector itself
        tl.store(out_ptr + b * OUT_W + d, tl.load(dense_ptr + b * D + d, mask=d < D), mask=d < D)
    i = f[:, None]
    j = f[None, :]
    keep = (j < i) & (i <= S)
    tl.store(out_ptr + b * OUT_W + D + (i * (i - 1)) // 2 + j, z.to(out_ptr.dtype.element_ty), mask=keep)


def dot_interaction(dense: torch.Tensor, emb: torch.Tensor) -> torch.Tensor:
    B, S, D = emb.shape
    F = S + 1
    out_w = D + F * (F - 1) // 2
    out = torch.empty((B, out_w), dtype=dense.dtype, device=dense.device)
    dot_interaction_kernel[(B,)](dense, emb, out, S, D, out_w, BLOCK_F=triton.next_power_of_2(F))
    return out


def run(dense: torch.Tensor, emb: torch.Tensor) -> torch.Tensor:
    return dot_interaction(dense, emb)
