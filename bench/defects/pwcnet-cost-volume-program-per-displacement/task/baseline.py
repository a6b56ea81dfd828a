"""PWC-Net cost volume: mean over channels of f1 * shifted f2 for 81 displacements, then LeakyReLU(0.1)."""
import torch
import triton
import triton.language as tl

MD = 4
BLOCK_X = 128          # pixels of a row per program (fewer when the row is shorter)


@triton.jit
def _cost_volume(f1, f2, cost, C, H, W, inv_c,
                 MD: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_X: tl.constexpr):
    ND: tl.constexpr = (2 * MD + 1) * (2 * MD + 1)
    x = tl.program_id(0) * BLOCK_X + tl.arange(0, BLOCK_X)
    y = tl.program_id(1)
    b = tl.program_id(2)
    x_ok = x < W
    c = tl.arange(0, BLOCK_C)
    c_ok = c < C
    rows = (b * C + c[:, None]) * H
    a = tl.load(f1 + (rows + y) * W + x[None, :], mask=c_ok[:, None] & x_ok[None, :], other=0.0)

    for d in range(ND):
        dy = d // (2 * MD + 1) - MD
        dx = d % (2 * MD + 1) - MD
        yy = y + dy
        xx = x + dx
        ok = c_ok[:, None] & ((xx >= 0) & (xx < W) & (yy >= 0) & (yy < H))[None, :]
        v = tl.load(f2 + (rows + yy) * W + xx[None, :], mask=ok, other=0.0)
        s = tl.sum(a * v, axis=0) * inv_c
        s = tl.where(s > 0, s, 0.1 * s)
        tl.store(cost + ((b * ND + d) * H + y) * W + x, s, mask=x_ok)


def run(f1: torch.Tensor, f2: torch.Tensor) -> torch.Tensor:
    B, C, H, W = f1.shape
    nd = (2 * MD + 1) ** 2
    cost = torch.empty((B, nd, H, W), device=f1.device, dtype=torch.float32)
    block_x = min(BLOCK_X, triton.next_power_of_2(W))
    grid = (triton.cdiv(W, block_x), H, B)
    _cost_volume[grid](f1, f2, cost, C, H, W, 1.0 / C,
                       MD=MD, BLOCK_C=triton.next_power_of_2(C), BLOCK_X=block_x, num_warps=4)
    return cost
