"""vg haplotypes: score each subchunk's candidate haplotypes by the k-mers they share with the reads."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_KMER_BLOCK = 128


@triton.jit
def _score_candidates(has, counts, score, S, H, K, absent_below, present_from, frequent_from,
                      BH: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    hh = tl.arange(0, BH)
    hmask = hh < H
    kk = tl.arange(0, BK)
    for s in range(pid, S, nprog):
        acc = tl.zeros([BH], dtype=tl.int32)
        for k0 in range(0, K, BK):
            ks = k0 + kk
            kmask = ks < K
            # k-mers past the end read as frequent: neither present nor absent, they score 0
            c = tl.load(counts + s * K + ks, mask=kmask, other=1 << 30).to(tl.float32)
            present = (c >= present_from) & (c < frequent_from)
            absent = c < absent_below
            t = tl.load(has + s * H * K + hh[:, None] * K + ks[None, :],
                        mask=hmask[:, None] & kmask[None, :], other=0).to(tl.int32)
            contrib = tl.where(present[None, :], t, tl.where(absent[None, :], 1 - t, 0))
            acc += tl.sum(contrib, axis=1)
        tl.store(score + s * H + hh, acc, mask=hmask)


def run(has: torch.Tensor, counts: torch.Tensor, cov: float) -> torch.Tensor:
    n_sub, n_hap, n_kmer = has.shape
    score = torch.empty((n_sub, n_hap), dtype=torch.int32, device=has.device)
    grid = (min(_VECTOR_CORES, n_sub),)
    _score_candidates[grid](has, counts, score, n_sub, n_hap, n_kmer,
                            0.25 * cov, 0.75 * cov, 2.0 * cov,
                            BH=triton.next_power_of_2(n_hap), BK=_KMER_BLOCK)
    return score
