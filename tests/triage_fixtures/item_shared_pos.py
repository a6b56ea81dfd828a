# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def nearest(src, dst, out, n_dst, BLOCK: tl.constexpr):
    q = tl.program_id(0)
    qx = tl.load(src + q * 2)
    qy = tl.load(src + q * 2 + 1)
    best = tl.full([BLOCK], float("inf"), tl.float32)
    for start in range(0, n_dst, BLOCK):
        j = start + tl.arange(0, BLOCK)
        ok = j < n_dst
        dx = tl.load(dst + j * 2, mask=ok, other=float("inf")) - qx
        dy = tl.load(dst + j * 2 + 1, mask=ok, other=float("inf")) - qy
        best = tl.minimum(best, dx * dx + dy * dy)
    tl.store(out + q, tl.min(best, axis=0))


@triton.jit
def molecule_energy(charge, out, n, BLOCK: tl.constexpr):
    atom = tl.program_id(0)
    mol = atom // n
    others = tl.arange(0, BLOCK)
    mine = tl.load(charge + atom)
    theirs = tl.load(charge + mol * n + others, mask=others < n, other=0.0)
    tl.store(out + atom, tl.sum(mine * theirs, axis=0))


def run(src, dst, charge, n):
    out = torch.empty(src.shape[0], device=src.device)
    nearest[(src.shape[0],)](src, dst, out, dst.shape[0], BLOCK=512)  # expect: common-item-against-shared-tile
    energy = torch.empty_like(charge)
    molecule_energy[(charge.numel(),)](charge, energy, n, BLOCK=triton.next_power_of_2(n))  # expect: common-item-against-shared-tile
    return out, energy
