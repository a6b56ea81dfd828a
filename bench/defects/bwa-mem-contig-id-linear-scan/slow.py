"""BWA-MEM hit coordinate -> (contig id, position in contig, strand) over the packed forward+reverse reference."""
import torch
import triton
import triton.language as tl


@triton.jit
def _pos_to_contig(pos, offsets, rid_out, local_out, rev_out, M, R,
                   BLOCK: tl.constexpr, CHUNK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < M
    p = tl.load(pos + offs, mask=ok, other=0)
    l_pac = tl.load(offsets + R)
    is_rev = p >= l_pac
    fwd = tl.where(is_rev, 2 * l_pac - 1 - p, p)
    count = tl.zeros((BLOCK,), dtype=tl.int32)
    for start in range(0, R, CHUNK):
        idx = start + tl.arange(0, CHUNK)
        starts = tl.load(offsets + idx, mask=idx < R, other=l_pac)
        count += tl.sum((starts[None, :] <= fwd[:, None]).to(tl.int32), axis=1)
    rid = count - 1
    base = tl.load(offsets + rid, mask=ok, other=0)
    tl.store(rid_out + offs, rid, mask=ok)
    tl.store(local_out + offs, (fwd - base).to(tl.int32), mask=ok)
    tl.store(rev_out + offs, is_rev.to(tl.int8), mask=ok)


def run(pos: torch.Tensor, offsets: torch.Tensor) -> tuple:
    M = pos.numel()
    R = offsets.numel() - 1
    rid = torch.empty(M, device=pos.device, dtype=torch.int32)
    local = torch.empty(M, device=pos.device, dtype=torch.int32)
    rev = torch.empty(M, device=pos.device, dtype=torch.int8)
    BLOCK, CHUNK = 128, 64
    _pos_to_contig[(triton.cdiv(M, BLOCK),)](pos, offsets, rid, local, rev, M, R,
                                              BLOCK=BLOCK, CHUNK=CHUNK, num_warps=4)
    return rid, local, rev
