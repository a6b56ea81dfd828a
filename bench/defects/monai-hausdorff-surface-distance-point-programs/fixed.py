"""Nearest-surface distances (MONAI Hausdorff / surface distance): for each point, the closest point of the other surface."""
import torch
import triton
import triton.language as tl


@triton.jit
def _nearest_surface(src, dst, out, n_src, n_dst, BLOCK_P: tl.constexpr, BLOCK_Q: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    rmask = rows < n_src
    px = tl.load(src + rows * 3, mask=rmask, other=0.0)[:, None]
    py = tl.load(src + rows * 3 + 1, mask=rmask, other=0.0)[:, None]
    pz = tl.load(src + rows * 3 + 2, mask=rmask, other=0.0)[:, None]
    offs = tl.arange(0, BLOCK_Q)
    best = tl.full([BLOCK_P, BLOCK_Q], float("inf"), tl.float32)
    for start in range(0, n_dst, BLOCK_Q):
        j = start + offs
        m = j < n_dst
        dx = tl.load(dst + j * 3, mask=m, other=float("inf"))[None, :] - px
        dy = tl.load(dst + j * 3 + 1, mask=m, other=float("inf"))[None, :] - py
        dz = tl.load(dst + j * 3 + 2, mask=m, other=float("inf"))[None, :] - pz
        best = tl.minimum(best, dx * dx + dy * dy + dz * dz)
    tl.store(out + rows, tl.sqrt(tl.min(best, axis=1)), mask=rmask)


def _directed(src: torch.Tensor, dst: torch.Tensor) -> torch.Tensor:
    n = src.shape[0]
    out = torch.empty(n, device=src.device, dtype=torch.float32)
    BLOCK_P, BLOCK_Q = 64, 64
    _nearest_surface[(triton.cdiv(n, BLOCK_P),)](src, dst, out, n, dst.shape[0],
                                                 BLOCK_P=BLOCK_P, BLOCK_Q=BLOCK_Q, num_warps=4)
    return out


def run(pred: torch.Tensor, gt: torch.Tensor) -> tuple:
    return _directed(pred, gt), _directed(gt, pred)
