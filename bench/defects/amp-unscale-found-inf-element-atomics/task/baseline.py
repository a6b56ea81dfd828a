"""GradScaler unscale_ for a flat fp32 grad bucket: multiply by inv_scale; each program reduces its block's
non-finite flag on chip and folds it into found_inf with a single atomic."""
import torch
import triton
import triton.language as tl

BLOCK = 4096


@triton.jit
def unscale_kernel(g_ptr, out_ptr, inv_scale_ptr, found_inf_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    inv_scale = tl.load(inv_scale_ptr)
    g = tl.load(g_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, g * inv_scale, mask=mask)
    bad = ((tl.abs(g) == float("inf")) | (g != g)).to(tl.float32)
    tl.atomic_max(found_inf_ptr, tl.max(bad, axis=0))


def run(grads: torch.Tensor, inv_scale: torch.Tensor) -> tuple:
    n = grads.numel()
    out = torch.empty_like(grads)
    found_inf = torch.zeros(1, dtype=torch.float32, device=grads.device)
    unscale_kernel[(triton.cdiv(n, BLOCK),)](grads, out, inv_scale, found_inf, n, BLOCK=BLOCK, num_warps=8)
    return out, found_inf
