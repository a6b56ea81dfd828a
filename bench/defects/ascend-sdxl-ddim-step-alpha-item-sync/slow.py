"""SDXL DDIM step (eta = 0): x_prev = sqrt(a_prev / a_t) x + (sqrt(1 - a_prev) - sqrt(a_prev (1 - a_t) / a_t)) eps."""
import math

import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40
BLOCK = 2048


@triton.jit
def _ddim_step(eps_ptr, x_ptr, out_ptr, c_x, c_e, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for start in range(pid * BLOCK, N, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < N
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        e = tl.load(eps_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        y = c_x * x + c_e * e
        tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


def _step_coefficients(alphas_cumprod: torch.Tensor, timestep: torch.Tensor, step_ratio: int):
    t = int(timestep.item())
    prev = max(t - step_ratio, 0)
    a_t = alphas_cumprod[t].item()
    a_prev = alphas_cumprod[prev].item()
    c_x = math.sqrt(a_prev / a_t)
    c_e = math.sqrt(1.0 - a_prev) - math.sqrt(a_prev * (1.0 - a_t) / a_t)
    return c_x, c_e


def run(model_output: torch.Tensor, sample: torch.Tensor, alphas_cumprod: torch.Tensor,
        timestep: torch.Tensor, step_ratio: int) -> torch.Tensor:
    c_x, c_e = _step_coefficients(alphas_cumprod, timestep, step_ratio)
    out = torch.empty_like(sample)
    n = sample.numel()
    grid = (max(1, min(NUM_VECTOR_CORES, triton.cdiv(n, BLOCK))),)
    _ddim_step[grid](model_output, sample, out, c_x, c_e, n, BLOCK=BLOCK)
    return out
