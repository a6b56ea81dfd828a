"""Flow-matching noising for triton-ascend: vector cores loop over (sample, block) tiles; one Philox draw per
lane gives the noise of four contiguous sub-blocks."""
import torch
import triton
import triton.language as tl

AIV_CORES = 40


@triton.jit
def _mix_block(x_ptr, xt_ptr, tgt_ptr, offs, limit, sigma, eps):
    mask = offs < limit
    x0 = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(xt_ptr + offs, (1.0 - sigma) * x0 + sigma * eps, mask=mask)
    tl.store(tgt_ptr + offs, eps - x0, mask=mask)


@triton.jit
def flow_noise_kernel(x_ptr, sigma_ptr, xt_ptr, tgt_ptr, per_sample, tiles_per_sample, n_tiles, seed,
                      NUM_PROGRAMS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    lane = tl.arange(0, BLOCK)
    for tile in range(pid, n_tiles, NUM_PROGRAMS):
        b = tile // tiles_per_sample
        sigma = tl.load(sigma_ptr + b)
        start = (tile - b * tiles_per_sample) * 4 * BLOCK
        base = b * per_sample
        e0, e1, e2, e3 = tl.randn4x(seed, tile * BLOCK + lane)
        _mix_block(x_ptr + base, xt_ptr + base, tgt_ptr + base, start + lane, per_sample, sigma, e0)
        _mix_block(x_ptr + base, xt_ptr + base, tgt_ptr + base, start + BLOCK + lane, per_sample, sigma, e1)
        _mix_block(x_ptr + base, xt_ptr + base, tgt_ptr + base, start + 2 * BLOCK + lane, per_sample, sigma, e2)
        _mix_block(x_ptr + base, xt_ptr + base, tgt_ptr + base, start + 3 * BLOCK + lane, per_sample, sigma, e3)


def run(x0: torch.Tensor, sigma: torch.Tensor, seed: int) -> tuple:
    xt = torch.empty_like(x0)
    target = torch.empty_like(x0)
    per_sample = x0[0].numel()
    block = 1024
    tiles_per_sample = triton.cdiv(per_sample, 4 * block)
    n_tiles = x0.shape[0] * tiles_per_sample
    num_programs = min(AIV_CORES, n_tiles)
    launch = dict(NUM_PROGRAMS=num_programs, BLOCK=block)
    flow_noise_kernel[(num_programs,)](x0, sigma, xt, target, per_sample, tiles_per_sample, n_tiles, seed,
                                       **launch)
    return xt, target
