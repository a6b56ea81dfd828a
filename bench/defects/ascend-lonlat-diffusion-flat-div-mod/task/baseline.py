"""Lat-lon diffusion as a triton-ascend kernel: 40 programs (one per vector core) each walk whole grid rows,
one UB tile per row; the pole clamp is decided once per row and the longitude wrap by a select."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40  # Ascend 910B vector cores


@triton.jit
def diffusion_kernel(t_ptr, out_ptr, H, W, n_rows, nu, NUM_PROGS: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    w = tl.arange(0, BLOCK_W)
    m = w < W
    west = tl.where(w == 0, W - 1, w - 1)
    east = tl.where(w == W - 1, 0, w + 1)
    for r in range(pid, n_rows, NUM_PROGS):
        h = r % H
        base = r * W
        up = tl.where(h > 0, base - W, base)
        down = tl.where(h < H - 1, base + W, base)
        c = tl.load(t_ptr + base + w, mask=m, other=0.0)
        tn = tl.load(t_ptr + up + w, mask=m, other=0.0)
        ts = tl.load(t_ptr + down + w, mask=m, other=0.0)
        tw = tl.load(t_ptr + base + west, mask=m, other=0.0)
        te = tl.load(t_ptr + base + east, mask=m, other=0.0)
        tl.store(out_ptr + base + w, c + nu * (tn + ts + tw + te - 4.0 * c), mask=m)


def run(state: torch.Tensor, nu: float) -> torch.Tensor:
    C, H, W = state.shape
    out = torch.empty_like(state)
    diffusion_kernel[(NUM_CORES,)](state, out, H, W, C * H, nu, NUM_PROGS=NUM_CORES,
                                   BLOCK_W=triton.next_power_of_2(W))
    return out
