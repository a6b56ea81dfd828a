"""mmcv-style dynamic scatter (max): the voxel rows start at -inf and every point's features are folded in with tl.atomic_max at its voxel, over a (point block, channel block) grid."""
import torch
import triton
import triton.language as tl


@triton.jit
def fill_kernel(out_ptr, n, value, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.full([BLOCK], value, dtype=out_ptr.dtype.element_ty), mask=offs < n)


@triton.jit
def scatter_max_kernel(feats_ptr, p2v_ptr, out_ptr, P, C, BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr):
    p = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    c = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    pmask = p < P
    mask = pmask[:, None] & (c < C)[None, :]
    voxel = tl.load(p2v_ptr + p, mask=pmask, other=0)
    f = tl.load(feats_ptr + p.to(tl.int64)[:, None] * C + c[None, :], mask=mask)
    tl.atomic_max(out_ptr + voxel.to(tl.int64)[:, None] * C + c[None, :], f, mask=mask)


def dynamic_scatter_max(feats: torch.Tensor, point2voxel: torch.Tensor, voxel_ptr: torch.Tensor) -> torch.Tensor:
    P, C = feats.shape
    V = voxel_ptr.numel() - 1
    out = torch.empty((V, C), dtype=feats.dtype, device=feats.device)
    fill_kernel[(triton.cdiv(V * C, 1024),)](out, V * C, float("-inf"), BLOCK=1024)
    BLOCK_P, BLOCK_C = 64, min(64, triton.next_power_of_2(C))
    grid = (triton.cdiv(P, BLOCK_P), triton.cdiv(C, BLOCK_C))
    scatter_max_kernel[grid](feats, point2voxel, out, P, C, BLOCK_P=BLOCK_P, BLOCK_C=BLOCK_C)
    return out


def run(feats: torch.Tensor, point2voxel: torch.Tensor, voxel_ptr: torch.Tensor) -> torch.Tensor:
    return dynamic_scatter_max(feats, point2voxel, voxel_ptr)
