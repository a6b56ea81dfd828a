"""Per-edge triangle support |N+(u) & N+(v)| on the upper-triangular CSR, one program per edge."""
import torch
import triton
import triton.language as tl


@triton.jit
def _edge_support(rowptr, col, src, support, E, BLOCK: tl.constexpr):
    e = tl.program_id(0)
    u = tl.load(src + e)
    v = tl.load(col + e)
    u_start = tl.load(rowptr + u)
    u_len = tl.load(rowptr + u + 1) - u_start
    v_start = tl.load(rowptr + v)
    v_len = tl.load(rowptr + v + 1) - v_start
    lane = tl.arange(0, BLOCK)
    hits = tl.zeros([BLOCK, BLOCK], dtype=tl.int32)
    for i0 in range(0, u_len, BLOCK):
        a = tl.load(col + u_start + i0 + lane, mask=i0 + lane < u_len, other=-1)
        for j0 in range(0, v_len, BLOCK):
            b = tl.load(col + v_start + j0 + lane, mask=j0 + lane < v_len, other=-2)
            hits += (a[:, None] == b[None, :]).to(tl.int32)
    tl.store(support + e, tl.sum(tl.sum(hits, axis=1), axis=0))


def run(rowptr: torch.Tensor, col: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    E = col.numel()
    support = torch.empty(E, device=col.device, dtype=torch.int32)
    if E:
        _edge_support[(E,)](rowptr, col, src, support, E, BLOCK=32, num_warps=1)
    return support
