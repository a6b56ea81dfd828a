"""Mash sketch hashing: MurmurHash3_x86_32 (seed 42) of every canonical 16-mer of a batch of genomes."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_K = 16
_SEED = 42


@triton.jit
def _rotl32(x, r: tl.constexpr):
    return (x << r) | (x >> (32 - r))


@triton.jit
def _mash_hash_kmers(seqs, lengths, out, G, P, stride_s, stride_o,
                     K: tl.constexpr, SEED: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    nblk = tl.cdiv(P, BLOCK)
    lanes = tl.arange(0, BLOCK)
    for item in range(pid, G * nblk, nprog):
        g = item // nblk
        blk = item % nblk
        n_kmers = tl.load(lengths + g) - K + 1
        if blk * BLOCK < n_kmers:
            p = blk * BLOCK + lanes
            valid = p < n_kmers
            row = seqs + g * stride_s + p
            # forward and reverse-complement 2-bit codes (A=0 C=1 G=2 T=3, the memcmp order of ASCII)
            fwd = tl.zeros([BLOCK], dtype=tl.uint32)
            rc = tl.zeros([BLOCK], dtype=tl.uint32)
            for t in tl.static_range(K):
                ch = tl.load(row + t, mask=valid, other=65).to(tl.uint32)
                c = ((ch >> 1) ^ (ch >> 2)) & 3
                fwd = (fwd << 2) | c
                rc = rc | ((3 - c) << (2 * t))
            canon = tl.minimum(fwd, rc)
            # MurmurHash3_x86_32 over the k characters of the canonical k-mer, 4 per little-endian word
            h = tl.full([BLOCK], SEED, dtype=tl.uint32)
            for j in tl.static_range(K // 4):
                w = tl.zeros([BLOCK], dtype=tl.uint32)
                for i in tl.static_range(4):
                    c = (canon >> (2 * (K - 1 - (4 * j + i)))) & 3
                    asc = (0x54474341 >> (c * 8)) & 0xFF
                    w = w | (asc << (8 * i))
                w = w * 0xCC9E2D51
                w = _rotl32(w, 15)
                w = w * 0x1B873593
                h = h ^ w
                h = _rotl32(h, 13)
                h = h * 5 + 0xE6546B64
            h = h ^ K
            h = h ^ (h >> 16)
            h = h * 0x85EBCA6B
            h = h ^ (h >> 13)
            h = h * 0xC2B2AE35
            h = h ^ (h >> 16)
            tl.store(out + g * stride_o + p, h.to(tl.int32, bitcast=True), mask=valid)


def run(seqs: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    G, Lmax = seqs.shape
    P = Lmax - _K + 1
    out = torch.zeros((G, P), device=seqs.device, dtype=torch.int32)
    BLOCK = 2048
    grid = (min(_VECTOR_CORES, G * triton.cdiv(P, BLOCK)),)
    _mash_hash_kmers[grid](seqs, lengths, out, G, P, seqs.stride(0), out.stride(0),
                           K=_K, SEED=_SEED, BLOCK=BLOCK)
    return out
