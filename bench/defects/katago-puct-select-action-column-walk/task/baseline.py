"""KataGo-style PUCT selection: pick the child to descend into for a batch of search nodes."""
import torch
import triton
import triton.language as tl

ROWS = 2  # search nodes per program, each row loaded whole along the moves


@triton.jit
def _puct_select(prior, visits, wsum, legal, parent_utility, best_move, best_score,
                 n_nodes, n_moves, ROWS: tl.constexpr, BLOCK_A: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    ok = r < n_nodes
    a = tl.arange(0, BLOCK_A)
    m = ok[:, None] & (a[None, :] < n_moves)
    at = r[:, None] * n_moves + a[None, :]
    n_i = tl.load(visits + at, mask=m, other=0)
    p = tl.load(prior + at, mask=m, other=0.0)
    w = tl.load(wsum + at, mask=m, other=0.0)
    lg = tl.load(legal + at, mask=m, other=0)
    # totalChildWeight and the policy mass already visited
    total = tl.sum(n_i, axis=1)
    mass = tl.sum(tl.where(n_i > 0, p, 0.0), axis=1)
    tot = total.to(tl.float32)
    cpuct = 1.0 + 0.45 * tl.log((tot + 500.0) / 500.0)
    scale = cpuct * tl.sqrt(tot + 0.01)
    fpu = tl.load(parent_utility + r, mask=ok, other=0.0) - 0.2 * tl.sqrt(mass)
    n = n_i.to(tl.float32)
    q = tl.where(n > 0, w / tl.maximum(n, 1.0), fpu[:, None])
    s = tl.where(lg != 0, q + scale[:, None] * p / (1.0 + n), float("-inf"))
    tl.store(best_move + r, tl.argmax(s, axis=1).to(tl.int32), mask=ok)
    tl.store(best_score + r, tl.max(s, axis=1), mask=ok)


def run(prior, visits, wsum, legal, parent_utility) -> tuple:
    n_nodes, n_moves = prior.shape
    best_move = torch.empty(n_nodes, device=prior.device, dtype=torch.int32)
    best_score = torch.empty(n_nodes, device=prior.device, dtype=torch.float32)
    _puct_select[(triton.cdiv(n_nodes, ROWS),)](prior, visits, wsum, legal, parent_utility, best_move,
                                                best_score, n_nodes, n_moves, ROWS=ROWS,
                                                BLOCK_A=triton.next_power_of_2(n_moves), num_warps=2)
    return best_move, best_score
