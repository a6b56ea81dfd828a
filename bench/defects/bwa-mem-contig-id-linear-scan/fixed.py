"""BWA-MEM hit coordinate -> (contig id, position in contig, strand) over the packed forward+reverse reference."""
import torch
import triton
import triton.language as tl


@triton.jit
def _pos_to_contig(pos, offsets, rid_out, local_out, rev_out, M, R, n_steps, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < M
    p = tl.load(pos + offs, mask=ok, other=0)
    l_pac = tl.load(offsets + R)
    is_rev = p >= l_pac
    fwd = tl.where(is_rev, 2 * l_pac - 1 - p, p)
    # invariant: offsets[lo] <= fwd < offsets[hi]
    lo = tl.zeros((BLOCK,), dtype=tl.int32)
    hi = tl.zeros((BLOCK,), dtype=tl.int32) + R
    for _ in range(n_steps):
        mid = (lo + hi) >> 1
        go_right = tl.load(offsets + mid) <= fwd
        lo = tl.where(go_right, mid, lo)
        hi = tl.where(go_right, hi, mid)
    base = tl.load(offsets + lo)
    tl.store(rid_out + offs, lo, mask=ok)
    tl.store(local_out + offs, (fwd - base).to(tl.int32), mask=ok)
    tl.store(rev_out + offs, is_rev.to(tl.int8), mask=ok)


def run(pos: torch.Tensor, offsets: torch.Tensor) -> tuple:
    M = pos.numel()
    R = offsets.numel() - 1
    rid = torch.empty(M, device=pos.device, dtype=torch.int32)
    local = torch.empty(M, device=pos.device, dtype=torch.int32)
    rev = torch.empty(M, device=pos.device, dtype=torch.int8)
    n_steps = max(1, (R - 1).bit_length())
    BLOCK = 1024
    _pos_to_contig[(triton.cdiv(M, BLOCK),)](pos, offsets, rid, local, rev, M, R, n_steps,
                                              BLOCK=BLOCK, num_warps=4)
    return rid, local, rev
