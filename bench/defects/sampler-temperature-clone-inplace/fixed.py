"""apply_temperature out of place: read the logits once, write the scaled copy once (no clone)."""
import torch
import triton
import triton.language as tl


@triton.jit
def temperature_kernel(logits_ptr, temp_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < V
    t = tl.load(temp_ptr + row)
    t = tl.where(t == 0.0, 1.0, t)          # greedy requests are argmax'ed later; leave them unscaled
    x = tl.load(logits_ptr + row * V + cols, mask=mask)
    tl.store(out_ptr + row * V + cols, x / t, mask=mask)


def run(logits: torch.Tensor, temp: torch.Tensor) -> torch.Tensor:
    B, V = logits.shape
    out = torch.empty_like(logits)
    BLOCK = 8192
    temperature_kernel[(B, triton.cdiv(V, BLOCK))](logits, temp, out, V, BLOCK=BLOCK, num_warps=4)
    return out
