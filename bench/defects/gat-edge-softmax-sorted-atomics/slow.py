"""Graph-attention edge softmax, edge-parallel like scatter(reduce='max') / scatter_add: three passes over the edges."""
import torch
import triton
import triton.language as tl


@triton.jit
def _edge_tile(pid, E, H: tl.constexpr, BLOCK: tl.constexpr):
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    return offs, offs < E * H, offs // H, offs % H


@triton.jit
def scatter_max_kernel(src_ptr, index_ptr, node_max_ptr, E, H: tl.constexpr, BLOCK: tl.constexpr):
    offs, mask, edge, head = _edge_tile(tl.program_id(0), E, H, BLOCK)
    dst = tl.load(index_ptr + edge, mask=mask, other=0)
    x = tl.load(src_ptr + offs, mask=mask, other=0.0)
    tl.atomic_max(node_max_ptr + dst * H + head, x, mask=mask)


@triton.jit
def exp_scatter_sum_kernel(src_ptr, index_ptr, node_max_ptr, node_sum_ptr, out_ptr, E, H: tl.constexpr, BLOCK: tl.constexpr):
    offs, mask, edge, head = _edge_tile(tl.program_id(0), E, H, BLOCK)
    dst = tl.load(index_ptr + edge, mask=mask, other=0)
    x = tl.load(src_ptr + offs, mask=mask, other=0.0)
    p = tl.exp(x - tl.load(node_max_ptr + dst * H + head, mask=mask, other=0.0))
    tl.store(out_ptr + offs, p, mask=mask)
    tl.atomic_add(node_sum_ptr + dst * H + head, p, mask=mask)


@triton.jit
def normalize_kernel(index_ptr, node_sum_ptr, out_ptr, E, H: tl.constexpr, BLOCK: tl.constexpr):
    offs, mask, edge, head = _edge_tile(tl.program_id(0), E, H, BLOCK)
    dst = tl.load(index_ptr + edge, mask=mask, other=0)
    total = tl.load(node_sum_ptr + dst * H + head, mask=mask, other=1.0) + 1e-16
    tl.store(out_ptr + offs, tl.load(out_ptr + offs, mask=mask, other=0.0) / total, mask=mask)


def run(src: torch.Tensor, index: torch.Tensor, ptr: torch.Tensor, num_nodes: int) -> torch.Tensor:
    E, H = src.shape
    node_max = torch.empty((num_nodes, H), dtype=src.dtype, device=src.device).fill_(float("-inf"))
    node_sum = torch.zeros((num_nodes, H), dtype=src.dtype, device=src.device)
    out = torch.empty_like(src)
    block = 1024
    grid = (triton.cdiv(E * H, block),)
    scatter_max_kernel[grid](src, index, node_max, E, H, BLOCK=block)
    exp_scatter_sum_kernel[grid](src, index, node_max, node_sum, out, E, H, BLOCK=block)
    normalize_kernel[grid](index, node_sum, out, E, H, BLOCK=block)
    return out
