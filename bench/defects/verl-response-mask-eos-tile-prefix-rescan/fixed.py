"""verl get_response_mask: 1 up to and including the first EOS of each response, 0 after it."""
import torch
import triton
import triton.language as tl


@triton.jit
def _eos_hits(ids, eos_ids, n_eos):
    hit = tl.zeros_like(ids) != 0
    for k in range(0, n_eos):
        hit = hit | (ids == tl.load(eos_ids + k))
    return hit.to(tl.int32)


@triton.jit
def _response_mask(resp, eos_ids, out, T, n_eos, stride_r, stride_o, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    resp_row = resp + row * stride_r
    out_row = out + row * stride_o
    seen = 0
    for start in range(0, T, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        inb = cols < T
        ids = tl.load(resp_row + cols, mask=inb, other=-1)
        hit = _eos_hits(ids, eos_ids, n_eos)
        before = seen + tl.cumsum(hit, axis=0) - hit
        tl.store(out_row + cols, (before == 0).to(tl.int64), mask=inb)
        seen += tl.sum(hit, axis=0)


def run(response_id: torch.Tensor, eos_ids: torch.Tensor) -> torch.Tensor:
    N, T = response_id.shape
    out = torch.empty((N, T), device=response_id.device, dtype=torch.int64)
    _response_mask[(N,)](response_id, eos_ids, out, T, eos_ids.numel(),
                         response_id.stride(0), out.stride(0), BLOCK=1024, num_warps=4)
    return out
