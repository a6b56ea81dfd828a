"""Lat-lon diffusion as a triton-ascend kernel: 40 programs (one per vector core) each walk flat 2048-element
UB tiles of the [C, H, W] field, recovering every element's latitude and longitude with // and %."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40  # Ascend 910B vector cores


@triton.jit
def diffusion_kernel(t_ptr, out_ptr, H, W, n_elem, nu, NUM_PROGS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    n_blocks = tl.cdiv(n_elem, BLOCK)
    for blk in range(pid, n_blocks, NUM_PROGS):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < n_elem
        w = offs % W
        h = (offs // W) % H
        west = tl.where(w == 0, offs + W - 1, offs - 1)
        east = tl.where(w == W - 1, offs - (W - 1), offs + 1)
        up = tl.where(h > 0, offs - W, offs)
        down = tl.where(h < H - 1, offs + W, offs)
        c = tl.load(t_ptr + offs, mask=m, other=0.0)
        tn = tl.load(t_ptr + up, mask=m, other=0.0)
        ts = tl.load(t_ptr + down, mask=m, other=0.0)
        tw = tl.load(t_ptr + west, mask=m, other=0.0)
        te = tl.load(t_ptr + east, mask=m, other=0.0)
        tl.store(out_ptr + offs, c + nu * (tn + ts + tw + te - 4.0 * c), mask=m)


def run(state: torch.Tensor, nu: float) -> torch.Tensor:
    C, H, W = state.shape
    out = torch.empty_like(state)
    diffusion_kernel[(NUM_CORES,)](state, out, H, W, C * H * W, nu, NUM_PROGS=NUM_CORES, BLOCK=2048)
    return out
