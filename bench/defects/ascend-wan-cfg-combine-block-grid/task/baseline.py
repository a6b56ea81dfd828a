"""CFG combine for a video latent: one program per vector core, each striding over the 4,096-element blocks."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 48  # Atlas A2 (910B): 24 AI cores x 2 vector units


@triton.jit
def cfg_combine_kernel(cond_ptr, uncond_ptr, out_ptr, n, guide_scale, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0) * BLOCK
    for start in range(pid * BLOCK, n, step):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        c = tl.load(cond_ptr + offs, mask=mask, other=0.0)
        u = tl.load(uncond_ptr + offs, mask=mask, other=0.0)
        tl.store(out_ptr + offs, u + guide_scale * (c - u), mask=mask)


def run(cond: torch.Tensor, uncond: torch.Tensor, guide_scale: float) -> torch.Tensor:
    out = torch.empty_like(cond)
    n = cond.numel()
    grid = lambda meta: (min(NUM_VECTOR_CORES, triton.cdiv(n, meta["BLOCK"])),)
    cfg_combine_kernel[grid](cond, uncond, out, n, guide_scale, BLOCK=4096)
    return out
