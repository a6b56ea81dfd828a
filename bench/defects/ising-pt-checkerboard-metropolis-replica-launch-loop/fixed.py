"""Checkerboard Metropolis sweep of the 2D Ising model, all parallel-tempering replicas per launch."""
import torch
import triton
import triton.language as tl


@triton.jit
def _metropolis_color(src, rand, boltz, dst, L, COLOR: tl.constexpr, BH: tl.constexpr, BW: tl.constexpr):
    rep = tl.program_id(2)
    base = rep * L * L
    i = (tl.program_id(0) * BH + tl.arange(0, BH))[:, None]
    j = (tl.program_id(1) * BW + tl.arange(0, BW))[None, :]
    inside = (i < L) & (j < L)
    up = tl.where(i == 0, L - 1, i - 1)
    down = tl.where(i == L - 1, 0, i + 1)
    left = tl.where(j == 0, L - 1, j - 1)
    right = tl.where(j == L - 1, 0, j + 1)
    lattice = src + base
    s = tl.load(lattice + i * L + j, mask=inside, other=0).to(tl.int32)
    h = (tl.load(lattice + up * L + j, mask=inside, other=0).to(tl.int32)
         + tl.load(lattice + down * L + j, mask=inside, other=0).to(tl.int32)
         + tl.load(lattice + i * L + left, mask=inside, other=0).to(tl.int32)
         + tl.load(lattice + i * L + right, mask=inside, other=0).to(tl.int32))
    sh = s * h
    b4 = tl.load(boltz + rep * 2)
    b8 = tl.load(boltz + rep * 2 + 1)
    p = tl.where(sh == 4, b8, tl.where(sh == 2, b4, 1.0))
    u = tl.load(rand + base + i * L + j, mask=inside, other=1.0)
    mine = ((i + j) % 2) == COLOR
    new = tl.where(mine & (u < p), -s, s).to(tl.int8)
    tl.store(dst + base + i * L + j, new, mask=inside & (mine | (COLOR == 0)))


def run(spins: torch.Tensor, rand: torch.Tensor, boltz: torch.Tensor) -> torch.Tensor:
    R, L, _ = spins.shape
    out = torch.empty_like(spins)
    BH, BW = 32, 128
    grid = (triton.cdiv(L, BH), triton.cdiv(L, BW), R)
    _metropolis_color[grid](spins, rand, boltz, out, L, COLOR=0, BH=BH, BW=BW, num_warps=4)
    _metropolis_color[grid](out, rand, boltz, out, L, COLOR=1, BH=BH, BW=BW, num_warps=4)
    return out
