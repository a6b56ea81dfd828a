"""Graph-attention edge softmax over the CSR segments: one program per destination node, no atomics."""
import torch
import triton
import triton.language as tl


@triton.jit
def segment_softmax_kernel(src_ptr, ptr_ptr, out_ptr, H, BLOCK_E: tl.constexpr, BLOCK_H: tl.constexpr):
    node = tl.program_id(0)
    start = tl.load(ptr_ptr + node)
    end = tl.load(ptr_ptr + node + 1)
    heads = tl.arange(0, BLOCK_H)
    hmask = heads[None, :] < H
    m = tl.full((BLOCK_H,), float("-inf"), dtype=tl.float32)
    s = tl.zeros((BLOCK_H,), dtype=tl.float32)
    for e0 in range(start, end, BLOCK_E):
        e = e0 + tl.arange(0, BLOCK_E)
        mask = (e[:, None] < end) & hmask
        x = tl.load(src_ptr + e[:, None] * H + heads[None, :], mask=mask, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new[None, :]), axis=0)
        m = m_new
    inv = 1.0 / (s + 1e-16)
    for e0 in range(start, end, BLOCK_E):
        e = e0 + tl.arange(0, BLOCK_E)
        mask = (e[:, None] < end) & hmask
        x = tl.load(src_ptr + e[:, None] * H + heads[None, :], mask=mask, other=0.0)
        tl.store(out_ptr + e[:, None] * H + heads[None, :], tl.exp(x - m[None, :]) * inv[None, :], mask=mask)


def run(src: torch.Tensor, index: torch.Tensor, ptr: torch.Tensor, num_nodes: int) -> torch.Tensor:
    E, H = src.shape
    out = torch.empty_like(src)
    segment_softmax_kernel[(num_nodes,)](src, ptr, out, H, BLOCK_E=32, BLOCK_H=triton.next_power_of_2(H))
    return out
