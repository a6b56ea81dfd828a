"""vg giraffe full-length gapless extension: score each seed's read against its haplotype-path window."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
MATCH, MISMATCH, FULL_LENGTH_BONUS = 1, 4, 5


@triton.jit
def _gapless_extend(reads, hap, seed_read, seed_start, score_out, mism_out, S, L,
                    MATCH: tl.constexpr, MISMATCH: tl.constexpr, BONUS: tl.constexpr,
                    BL: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BL)
    cmask = cols < L
    for s in range(pid, S, nprog):
        rid = tl.load(seed_read + s)
        start = tl.load(seed_start + s)
        r = tl.load(reads + rid * L + cols, mask=cmask, other=4).to(tl.int32)
        h = tl.load(hap + start + cols, mask=cmask, other=4).to(tl.int32)
        known = (r != 4) & (h != 4)
        same = (r - h) == 0
        mism = tl.sum((known & ~same).to(tl.int32), axis=0)
        match = tl.sum((known & same).to(tl.int32), axis=0)
        tl.store(score_out + s, match * MATCH - mism * MISMATCH + 2 * BONUS)
        tl.store(mism_out + s, mism)


def run(reads: torch.Tensor, hap: torch.Tensor, seed_read: torch.Tensor, seed_start: torch.Tensor):
    n_seeds = seed_read.shape[0]
    length = reads.shape[1]
    score = torch.empty(n_seeds, dtype=torch.int32, device=reads.device)
    mism = torch.empty(n_seeds, dtype=torch.int32, device=reads.device)
    grid = (min(_VECTOR_CORES, n_seeds),)
    _gapless_extend[grid](reads, hap, seed_read, seed_start, score, mism, n_seeds, length,
                          MATCH=MATCH, MISMATCH=MISMATCH, BONUS=FULL_LENGTH_BONUS,
                          BL=triton.next_power_of_2(length))
    return score, mism
