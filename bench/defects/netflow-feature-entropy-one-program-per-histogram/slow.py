"""Traffic-feature entropy (Lakhina et al.) of one collector interval: H and normalised H per feature
histogram."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _feature_entropy(hist, ent_out, norm_out, n_buckets, BLOCK: tl.constexpr):
    feat = tl.program_id(0)
    base = hist + feat.to(tl.int64) * n_buckets
    total = tl.zeros([BLOCK], dtype=tl.int64)
    clogc = tl.zeros([BLOCK], dtype=tl.float32)
    used = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(0, n_buckets, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        c = tl.load(base + offs, mask=offs < n_buckets, other=0)
        cf = c.to(tl.float32)
        total += c
        clogc += tl.where(c > 0, cf * tl.log2(tl.maximum(cf, 1.0)), 0.0)
        used += (c > 0).to(tl.int32)
    s = tl.sum(total, axis=0).to(tl.float32)
    t = tl.sum(clogc, axis=0)
    k = tl.sum(used, axis=0).to(tl.float32)
    safe = tl.maximum(s, 1.0)
    h = tl.where(s > 0, tl.log2(safe) - t / safe, 0.0)
    hn = tl.where(k > 1, h / tl.log2(tl.maximum(k, 2.0)), 0.0)
    tl.store(ent_out + feat, h)
    tl.store(norm_out + feat, hn)


def run(hist: torch.Tensor) -> tuple:
    n_feat, n_buckets = hist.shape
    ent = torch.empty(n_feat, device=hist.device, dtype=torch.float32)
    norm = torch.empty_like(ent)
    _feature_entropy[(n_feat,)](hist, ent, norm, n_buckets, BLOCK=BLOCK, num_warps=4)
    return ent, norm
