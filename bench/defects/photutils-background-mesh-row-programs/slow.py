"""Background mesh: sigma-clipped mean and std of every BOX x BOX box of a sky image."""
import torch
import triton
import triton.language as tl


@triton.jit
def _box_stats(x, keep, n_min):
    n = tl.maximum(tl.sum(tl.sum(keep.to(tl.float32), axis=1), axis=0), n_min)
    mean = tl.sum(tl.sum(tl.where(keep, x, 0.0), axis=1), axis=0) / n
    d = tl.where(keep, x - mean, 0.0)
    std = tl.sqrt(tl.sum(tl.sum(d * d, axis=1), axis=0) / n)
    return mean, std


@triton.jit
def _background_mesh(img, bkg, rms, H, W, nx, sigma, MAXITERS: tl.constexpr, BOX: tl.constexpr):
    my = tl.program_id(0)
    rows = my * BOX + tl.arange(0, BOX)
    for mx in range(nx):
        cols = mx * BOX + tl.arange(0, BOX)
        in_img = (rows[:, None] < H) & (cols[None, :] < W)
        x = tl.load(img + rows[:, None] * W + cols[None, :], mask=in_img, other=0.0)
        keep = in_img
        for _ in range(MAXITERS):
            mean, std = _box_stats(x, keep, 1.0)
            keep = keep & (x >= mean - sigma * std) & (x <= mean + sigma * std)
        mean, std = _box_stats(x, keep, 1.0)
        tl.store(bkg + my * nx + mx, mean)
        tl.store(rms + my * nx + mx, std)


def run(image: torch.Tensor, box: int, sigma: float, maxiters: int) -> tuple:
    h, w = image.shape
    ny, nx = triton.cdiv(h, box), triton.cdiv(w, box)
    bkg = torch.empty(ny, nx, device=image.device, dtype=torch.float32)
    rms = torch.empty(ny, nx, device=image.device, dtype=torch.float32)
    _background_mesh[(ny,)](image, bkg, rms, h, w, nx, sigma,
                            MAXITERS=maxiters, BOX=box, num_warps=8)
    return bkg, rms
