"""Traffic-feature entropy (Lakhina et al.) of one collector interval: H and normalised H per feature
histogram."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
PIECE = 4 * BLOCK


@triton.jit
def _feature_entropy_piece(hist, part_total, part_clogc, part_used, n_buckets,
                           BLOCK: tl.constexpr, PIECE: tl.constexpr, SPLIT: tl.constexpr):
    feat = tl.program_id(0)
    piece = tl.program_id(1)
    base = hist + feat.to(tl.int64) * n_buckets
    total = tl.zeros([BLOCK], dtype=tl.int64)
    clogc = tl.zeros([BLOCK], dtype=tl.float32)
    used = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(piece * PIECE, piece * PIECE + PIECE, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        c = tl.load(base + offs, mask=offs < n_buckets, other=0)
        cf = c.to(tl.float32)
        total += c
        clogc += tl.where(c > 0, cf * tl.log2(tl.maximum(cf, 1.0)), 0.0)
        used += (c > 0).to(tl.int32)
    slot = feat * SPLIT + piece
    tl.store(part_total + slot, tl.sum(total, axis=0))
    tl.store(part_clogc + slot, tl.sum(clogc, axis=0))
    tl.store(part_used + slot, tl.sum(used, axis=0))


@triton.jit
def _feature_entropy_finish(part_total, part_clogc, part_used, ent_out, norm_out, SPLIT: tl.constexpr):
    feat = tl.program_id(0)
    p = feat * SPLIT + tl.arange(0, SPLIT)
    s = tl.sum(tl.load(part_total + p), axis=0).to(tl.float32)
    t = tl.sum(tl.load(part_clogc + p), axis=0)
    k = tl.sum(tl.load(part_used + p), axis=0).to(tl.float32)
    safe = tl.maximum(s, 1.0)
    h = tl.where(s > 0, tl.log2(safe) - t / safe, 0.0)
    hn = tl.where(k > 1, h / tl.log2(tl.maximum(k, 2.0)), 0.0)
    tl.store(ent_out + feat, h)
    tl.store(norm_out + feat, hn)


def run(hist: torch.Tensor) -> tuple:
    n_feat, n_buckets = hist.shape
    split = triton.next_power_of_2(triton.cdiv(n_buckets, PIECE))
    ent = torch.empty(n_feat, device=hist.device, dtype=torch.float32)
    norm = torch.empty_like(ent)
    part_total = torch.empty(n_feat * split, device=hist.device, dtype=torch.int64)
    part_clogc = torch.empty(n_feat * split, device=hist.device, dtype=torch.float32)
    part_used = torch.empty(n_feat * split, device=hist.device, dtype=torch.int32)
    _feature_entropy_piece[(n_feat, split)](hist, part_total, part_clogc, part_used, n_buckets,
                                            BLOCK=BLOCK, PIECE=PIECE, SPLIT=split, num_warps=4)
    _feature_entropy_finish[(n_feat,)](part_total, part_clogc, part_used, ent, norm, SPLIT=split)
    return ent, norm
