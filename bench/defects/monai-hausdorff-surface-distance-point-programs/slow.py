"""Nearest-surface distances (MONAI Hausdorff / surface distance): for each point, the closest point of the other surface."""
import torch
import triton
import triton.language as tl


@triton.jit
def _nearest_surface(src, dst, out, n_dst, BLOCK: tl.constexpr):
    p = tl.program_id(0)
    px = tl.load(src + p * 3)
    py = tl.load(src + p * 3 + 1)
    pz = tl.load(src + p * 3 + 2)
    offs = tl.arange(0, BLOCK)
    best = tl.full([BLOCK], float("inf"), tl.float32)
    for start in range(0, n_dst, BLOCK):
        j = start + offs
        m = j < n_dst
        dx = tl.load(dst + j * 3, mask=m, other=float("inf")) - px
        dy = tl.load(dst + j * 3 + 1, mask=m, other=float("inf")) - py
        dz = tl.load(dst + j * 3 + 2, mask=m, other=float("inf")) - pz
        best = tl.minimum(best, dx * dx + dy * dy + dz * dz)
    tl.store(out + p, tl.sqrt(tl.min(best, axis=0)))


def _directed(src: torch.Tensor, dst: torch.Tensor) -> torch.Tensor:
    out = torch.empty(src.shape[0], device=src.device, dtype=torch.float32)
    _nearest_surface[(src.shape[0],)](src, dst, out, dst.shape[0], BLOCK=1024, num_warps=4)
    return out


def run(pred: torch.Tensor, gt: torch.Tensor) -> tuple:
    return _directed(pred, gt), _directed(gt, pred)
