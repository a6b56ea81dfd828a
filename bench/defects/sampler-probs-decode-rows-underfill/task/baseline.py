"""Baseline sampler probabilities: chunk partials over (row, 4096-column chunk), then a merging write pass."""
import torch
import triton
import triton.language as tl


@triton.jit
def chunk_stats_kernel(logits_ptr, temp_ptr, m_ptr, s_ptr, strides, V, NC, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    c = tl.program_id(1)
    cols = c * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(logits_ptr + row * strides[0] + cols, mask=cols < V, other=float("-inf")) / tl.load(temp_ptr + row)
    m = tl.max(x, axis=0)
    tl.store(m_ptr + row * NC + c, m)
    tl.store(s_ptr + row * NC + c, tl.sum(tl.exp(x - m), axis=0))


@triton.jit
def chunk_probs_kernel(logits_ptr, temp_ptr, m_ptr, s_ptr, probs_ptr, strides, V, NC, BLOCK: tl.constexpr,
                       NC_BLOCK: tl.constexpr):
    row = tl.program_id(0)
    c = tl.program_id(1)
    parts = tl.arange(0, NC_BLOCK)
    pm = tl.load(m_ptr + row * NC + parts, mask=parts < NC, other=float("-inf"))
    m = tl.max(pm, axis=0)
    s = tl.sum(tl.load(s_ptr + row * NC + parts, mask=parts < NC, other=0.0) * tl.exp(pm - m), axis=0)
    cols = c * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(logits_ptr + row * strides[0] + cols, mask=cols < V, other=float("-inf")) / tl.load(temp_ptr + row)
    tl.store(probs_ptr + row * strides[1] + cols, tl.exp(x - m) / s, mask=cols < V)


def run(logits: torch.Tensor, temps: torch.Tensor) -> torch.Tensor:
    B, V = logits.shape
    nc = triton.cdiv(V, 4096)
    probs = torch.empty_like(logits)
    part_m = torch.empty((B, nc), device=logits.device, dtype=torch.float32)
    part_s = torch.empty((B, nc), device=logits.device, dtype=torch.float32)
    strides = (logits.stride(0), probs.stride(0))
    chunk_stats_kernel[(B, nc)](logits, temps, part_m, part_s, strides, V, nc, BLOCK=4096)
    chunk_probs_kernel[(B, nc)](logits, temps, part_m, part_s, probs, strides, V, nc, BLOCK=4096,
                                NC_BLOCK=triton.next_power_of_2(nc))
    return probs
