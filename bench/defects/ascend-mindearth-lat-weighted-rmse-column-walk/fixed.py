"""Latitude-weighted RMSE per (forecast, variable) plane: persistent programs over the planes."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _lat_weighted_rmse(pred, target, weights, out, P, H, W, inv_hw,
                       NPROG: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    lon = tl.arange(0, BLOCK_W)
    in_w = lon < W
    for plane in range(pid, P, NPROG):
        base = plane * H * W
        acc = tl.zeros([BLOCK_W], dtype=tl.float32)
        for lat in range(0, H):
            wt = tl.load(weights + lat)
            offs = base + lat * W + lon
            p = tl.load(pred + offs, mask=in_w, other=0.0)
            t = tl.load(target + offs, mask=in_w, other=0.0)
            d = p - t
            acc += wt * (d * d)
        total = tl.sum(acc, axis=0)
        tl.store(out + plane, tl.sqrt(total * inv_hw))


def run(pred: torch.Tensor, target: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    B, C, H, W = pred.shape
    P = B * C
    out = torch.empty((B, C), device=pred.device, dtype=torch.float32)
    nprog = min(P, NUM_CORES)
    _lat_weighted_rmse[(nprog,)](pred, target, weights, out, P, H, W, 1.0 / (H * W),
                                 NPROG=nprog, BLOCK_W=triton.next_power_of_2(W))
    return out
