"""vg giraffe full-length gapless extension: score each seed's read against its haplotype-path window."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_SEEDS_PER_BLOCK = 16
MATCH, MISMATCH, FULL_LENGTH_BONUS = 1, 4, 5


@triton.jit
def _gapless_extend(reads, hap, seed_read, seed_start, score_out, mism_out, S, L,
                    MATCH: tl.constexpr, MISMATCH: tl.constexpr, BONUS: tl.constexpr,
                    BS: tl.constexpr, BL: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BL)
    cmask = cols < L
    for blk in range(pid, tl.cdiv(S, BS), nprog):
        seeds = blk * BS + tl.arange(0, BS)
        smask = seeds < S
        rid = tl.load(seed_read + seeds, mask=smask, other=0)
        start = tl.load(seed_start + seeds, mask=smask, other=0)
        mask = smask[:, None] & cmask[None, :]
        r = tl.load(reads + rid[:, None] * L + cols[None, :], mask=mask, other=4).to(tl.int32)
        h = tl.load(hap + start[:, None] + cols[None, :], mask=mask, other=4).to(tl.int32)
        known = (r != 4) & (h != 4)
        same = (r - h) == 0
        mism = tl.sum((known & ~same).to(tl.int32), axis=1)
        match = tl.sum((known & same).to(tl.int32), axis=1)
        tl.store(score_out + seeds, match * MATCH - mism * MISMATCH + 2 * BONUS, mask=smask)
        tl.store(mism_out + seeds, mism, mask=smask)


def run(reads: torch.Tensor, hap: torch.Tensor, seed_read: torch.Tensor, seed_start: torch.Tensor):
    n_seeds = seed_read.shape[0]
    length = reads.shape[1]
    score = torch.empty(n_seeds, dtype=torch.int32, device=reads.device)
    mism = torch.empty(n_seeds, dtype=torch.int32, device=reads.device)
    grid = (min(_VECTOR_CORES, triton.cdiv(n_seeds, _SEEDS_PER_BLOCK)),)
    _gapless_extend[grid](reads, hap, seed_read, seed_start, score, mism, n_seeds, length,
                          MATCH=MATCH, MISMATCH=MISMATCH, BONUS=FULL_LENGTH_BONUS,
                          BS=_SEEDS_PER_BLOCK, BL=triton.next_power_of_2(length))
    return score, mism
