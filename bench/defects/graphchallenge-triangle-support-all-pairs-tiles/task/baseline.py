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
    # walk the shorter list, binary-search each of its elements in the longer one
    u_short = u_len <= v_len
    s_start = tl.where(u_short, u_start, v_start)
    s_len = tl.minimum(u_len, v_len)
    l_start = tl.where(u_short, v_start, u_start)
    l_len = tl.maximum(u_len, v_len)
    steps = 0
    rest = l_len
    while rest > 0:
        rest = rest // 2
        steps += 1
    lane = tl.arange(0, BLOCK)
    count = 0
    for i0 in range(0, s_len, BLOCK):
        valid = i0 + lane < s_len
        x = tl.load(col + s_start + i0 + lane, mask=valid, other=0)
        lo = tl.zeros([BLOCK], dtype=tl.int32)
        hi = tl.zeros([BLOCK], dtype=tl.int32) + l_len
        for _ in range(steps):
            open_ = lo < hi
            mid = (lo + hi) // 2
            b = tl.load(col + l_start + mid, mask=valid & open_, other=0)
            right = open_ & (b < x)
            lo = tl.where(right, mid + 1, lo)
            hi = tl.where(right | (lo >= hi), hi, mid)
        inside = valid & (lo < l_len)
        found = tl.load(col + l_start + lo, mask=inside, other=-1)
        count += tl.sum((inside & (found == x)).to(tl.int32), axis=0)
    tl.store(support + e, count)


def run(rowptr: torch.Tensor, col: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    E = col.numel()
    support = torch.empty(E, device=col.device, dtype=torch.int32)
    if E:
        _edge_support[(E,)](rowptr, col, src, support, E, BLOCK=32, num_warps=1)
    return support
