"""Flow-matching noising for triton-ascend: vector cores loop over (sample, block) tiles; each element's
noise comes from its own position in the Philox stream."""
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
        start = (tile - b * tiles_per_sample) * BLOCK
        offs = start + lane
        eps = tl.randn(seed, b * per_sample + offs)
        _mix_block(x_ptr + b * per_sample, xt_ptr + b * per_sample, tgt_ptr + b * per_sample, offs, per_sample,
                   sigma, eps)


def run(x0: torch.Tensor, sigma: torch.Tensor, seed: int) -> tuple:
    xt = torch.empty_like(x0)
    target = torch.empty_like(x0)
    per_sample = x0[0].numel()
    block = 4096
    tiles_per_sample = triton.cdiv(per_sample, block)
    n_tiles = x0.shape[0] * tiles_per_sample
    num_programs = min(AIV_CORES, n_tiles)
    launch = dict(NUM_PROGRAMS=num_programs, BLOCK=block)
    flow_noise_kernel[(num_programs,)](x0, sigma, xt, target, per_sample, tiles_per_sample, n_tiles, seed,
                                       **launch)
    return xt, target
