"""KataGo-style PUCT selection: pick the child to descend into for a batch of search nodes."""
import torch
import triton
import triton.language as tl

ROWS = 64  # one search node per lane


@triton.jit
def _puct_select(prior, visits, wsum, legal, parent_utility, best_move, best_score,
                 n_nodes, n_moves, ROWS: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    ok = r < n_nodes
    base = r * n_moves
    # totalChildWeight and the policy mass already visited
    total = tl.zeros([ROWS], dtype=tl.int32)
    mass = tl.zeros([ROWS], dtype=tl.float32)
    for a in range(n_moves):
        n = tl.load(visits + base + a, mask=ok, other=0)
        p = tl.load(prior + base + a, mask=ok, other=0.0)
        total += n
        mass += tl.where(n > 0, p, 0.0)
    tot = total.to(tl.float32)
    cpuct = 1.0 + 0.45 * tl.log((tot + 500.0) / 500.0)
    scale = cpuct * tl.sqrt(tot + 0.01)
    fpu = tl.load(parent_utility + r, mask=ok, other=0.0) - 0.2 * tl.sqrt(mass)
    best = tl.full([ROWS], float("-inf"), dtype=tl.float32)
    arg = tl.zeros([ROWS], dtype=tl.int32)
    for a in range(n_moves):
        n = tl.load(visits + base + a, mask=ok, other=0).to(tl.float32)
        p = tl.load(prior + base + a, mask=ok, other=0.0)
        w = tl.load(wsum + base + a, mask=ok, other=0.0)
        lg = tl.load(legal + base + a, mask=ok, other=0)
        q = tl.where(n > 0, w / tl.maximum(n, 1.0), fpu)
        s = tl.where(lg != 0, q + scale * p / (1.0 + n), float("-inf"))
        better = s > best
        best = tl.where(better, s, best)
        arg = tl.where(better, a, arg)
    tl.store(best_move + r, arg, mask=ok)
    tl.store(best_score + r, best, mask=ok)


def run(prior, visits, wsum, legal, parent_utility) -> tuple:
    n_nodes, n_moves = prior.shape
    best_move = torch.empty(n_nodes, device=prior.device, dtype=torch.int32)
    best_score = torch.empty(n_nodes, device=prior.device, dtype=torch.float32)
    _puct_select[(triton.cdiv(n_nodes, ROWS),)](prior, visits, wsum, legal, parent_utility, best_move,
                                                best_score, n_nodes, n_moves, ROWS=ROWS, num_warps=2)
    return best_move, best_score
