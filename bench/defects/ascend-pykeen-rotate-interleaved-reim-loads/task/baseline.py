"""RotatE triple scores: gamma - sum_k |h_k * r_k - t_k| over complex tables stored as interleaved re/im."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40
GAMMA = tl.constexpr(9.0)


@triton.jit
def _complex_chunk(row, k0, D, BLOCK_D: tl.constexpr):
    pair = 2 * k0 + tl.arange(0, 2 * BLOCK_D)
    v = tl.load(row + pair, mask=pair < 2 * D, other=0.0)
    return tl.split(tl.reshape(v, (BLOCK_D, 2)))


@triton.jit
def _rotate_scores(ent, rel, heads, rels, tails, out, T, D, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for i in range(pid, T, nprog):
        h_row = ent + tl.load(heads + i) * (2 * D)
        r_row = rel + tl.load(rels + i) * (2 * D)
        t_row = ent + tl.load(tails + i) * (2 * D)
        dist = tl.zeros([BLOCK_D], dtype=tl.float32)
        for k0 in range(0, D, BLOCK_D):
            h_re, h_im = _complex_chunk(h_row, k0, D, BLOCK_D)
            r_re, r_im = _complex_chunk(r_row, k0, D, BLOCK_D)
            t_re, t_im = _complex_chunk(t_row, k0, D, BLOCK_D)
            d_re = h_re * r_re - h_im * r_im - t_re
            d_im = h_re * r_im + h_im * r_re - t_im
            dist += tl.sqrt(d_re * d_re + d_im * d_im)
        tl.store(out + i, GAMMA - tl.sum(dist, axis=0))


def run(ent, rel, heads, rels, tails) -> torch.Tensor:
    D = ent.shape[1]
    T = heads.shape[0]
    out = torch.empty(T, device=ent.device, dtype=torch.float32)
    grid = (min(T, NUM_VECTOR_CORES),)
    _rotate_scores[grid](ent, rel, heads, rels, tails, out, T, D,
                         BLOCK_D=min(512, triton.next_power_of_2(D)))
    return out
