"""minimap2 mm_sketch k-mer step: canonical 2k-bit k-mer codes, hash64, strand bit (k = 15)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 2048  # k-mer starts per step


@triton.jit
def _hash64(key, MASK: tl.constexpr):
    """minimap2's hash64 (Thomas Wang's integer mix) modulo 2^2k."""
    key = (~key + (key << 21)) & MASK
    key = key ^ (key >> 24)
    key = ((key + (key << 3)) + (key << 8)) & MASK
    key = key ^ (key >> 14)
    key = ((key + (key << 2)) + (key << 4)) & MASK
    key = key ^ (key >> 28)
    key = (key + (key << 31)) & MASK
    return key


@triton.jit
def _kmer_hash(seq, out, n, n_kmers, K: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(n_kmers, BLOCK), nprog):
        p = blk * BLOCK + tl.arange(0, BLOCK)
        # 2k = 30 bits: codes, hash and record fit int32, and every step of hash64 is exact mod 2^30
        fwd = tl.zeros([BLOCK], dtype=tl.int32)
        rev = tl.zeros([BLOCK], dtype=tl.int32)
        worst = tl.zeros([BLOCK], dtype=tl.int32)
        for t in tl.static_range(K):
            c = tl.load(seq + p + t, mask=p + t < n, other=4).to(tl.int32)
            worst = tl.maximum(worst, c)
            fwd = (fwd << 2) | (c & 3)
            rev = rev | ((3 - (c & 3)) << (2 * t))
        canon = tl.minimum(fwd, rev)
        strand = (canon != fwd).to(tl.int32)
        rec = (_hash64(canon, (1 << (2 * K)) - 1) << 1) | strand
        rec = tl.where(worst.to(tl.float32) < 3.5, rec, -1)
        tl.store(out + p, rec.to(tl.int32), mask=p < n_kmers)


def run(seq: torch.Tensor, k: int) -> torch.Tensor:
    n = seq.numel()
    n_kmers = n - k + 1
    out = torch.empty(n_kmers, device=seq.device, dtype=torch.int32)
    grid = (min(_VECTOR_CORES, triton.cdiv(n_kmers, _BLOCK)),)
    _kmer_hash[grid](seq, out, n, n_kmers, K=k, BLOCK=_BLOCK)
    return out
