"""Completion mean log-prob: one program per sequence; loss mask = prompt_len <= t < seq_len, applied as in the torch code."""
import torch
import triton
import triton.language as tl


@triton.jit
def completion_logps_kernel(logp_ptr, prompt_ptr, seq_ptr, out_ptr, T, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    start = tl.load(prompt_ptr + row)
    end = tl.load(seq_ptr + row)
    base = logp_ptr + row.to(tl.int64) * T
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for off in range(0, T, BLOCK):
        t = off + tl.arange(0, BLOCK)
        x = tl.load(base + t, mask=t < T, other=0.0)
        loss_mask = (t >= start) & (t < end)
        acc += x * loss_mask.to(tl.float32)
    tl.store(out_ptr + row, tl.sum(acc, axis=0) / (end - start).to(tl.float32))


def run(logps: torch.Tensor, prompt_lens: torch.Tensor, seq_lens: torch.Tensor) -> torch.Tensor:
    B, T = logps.shape
    out = torch.empty((B,), device=logps.device, dtype=logps.dtype)
    completion_logps_kernel[(B,)](logps, prompt_lens, seq_lens, out, T, BLOCK=1024, num_warps=4)
    return out
