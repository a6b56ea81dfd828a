"""mmcv-style dynamic scatter (max) over voxel-sorted points: one program per voxel reduces its contiguous run of point rows in registers and stores the row once."""
import torch
import triton
import triton.language as tl


@triton.jit
def segment_max_kernel(feats_ptr, ptr_ptr, out_ptr, C, BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr):
    v = tl.program_id(0)
    c = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    cmask = c < C
    start = tl.load(ptr_ptr + v)
    end = tl.load(ptr_ptr + v + 1)
    best = tl.full([BLOCK_P, BLOCK_C], float("-inf"), dtype=tl.float32)
    for p0 in range(start, end, BLOCK_P):
        p = p0 + tl.arange(0, BLOCK_P)
        mask = (p < end)[:, None] & cmask[None, :]
        f = tl.load(feats_ptr + p.to(tl.int64)[:, None] * C + c[None, :], mask=mask, other=float("-inf"))
        best = tl.maximum(best, f)
    tl.store(out_ptr + v.to(tl.int64) * C + c, tl.max(best, axis=0), mask=cmask)


def dynamic_scatter_max(feats: torch.Tensor, point2voxel: torch.Tensor, voxel_ptr: torch.Tensor) -> torch.Tensor:
    P, C = feats.shape
    V = voxel_ptr.numel() - 1
    out = torch.empty((V, C), dtype=feats.dtype, device=feats.device)
    BLOCK_P, BLOCK_C = 8, min(64, triton.next_power_of_2(C))
    grid = (V, triton.cdiv(C, BLOCK_C))
    segment_max_kernel[grid](feats, voxel_ptr, out, C, BLOCK_P=BLOCK_P, BLOCK_C=BLOCK_C, num_warps=2)
    return out


def run(feats: torch.Tensor, point2voxel: torch.Tensor, voxel_ptr: torch.Tensor) -> torch.Tensor:
    return dynamic_scatter_max(feats, point2voxel, voxel_ptr)
