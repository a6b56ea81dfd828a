"""KV swap-out in one launch: a 3-D grid over (block pair, chunk, layer and K/V) of the single cache allocation."""
import torch
import triton
import triton.language as tl


@triton.jit
def gather_blocks_kernel(cache_ptr, src_ptr, out_ptr, NB, P, E, BLOCK: tl.constexpr):
    p = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    cache = tl.program_id(2).to(tl.int64)
    m = offs < E
    src = tl.load(src_ptr + p)
    vals = tl.load(cache_ptr + (cache * NB + src) * E + offs, mask=m)
    tl.store(out_ptr + (cache * P + p) * E + offs, vals, mask=m)


def swap_out(kv_caches: torch.Tensor, src_blocks: torch.Tensor) -> torch.Tensor:
    layers, _, blocks, elems = kv_caches.shape
    p = src_blocks.numel()
    staging = torch.empty((layers, 2, p, elems), dtype=kv_caches.dtype, device=kv_caches.device)
    grid = (p, triton.cdiv(elems, 4096), layers * 2)
    gather_blocks_kernel[grid](kv_caches, src_blocks, staging, blocks, p, elems, BLOCK=4096)
    return staging


def run(kv_caches: torch.Tensor, src_blocks: torch.Tensor) -> torch.Tensor:
    return swap_out(kv_caches, src_blocks)
