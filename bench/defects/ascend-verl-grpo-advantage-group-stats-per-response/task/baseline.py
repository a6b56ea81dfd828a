"""GRPO outcome advantages: group-normalised response scores broadcast over the response mask."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40  # Atlas A2 (910B4) AIV cores
BLOCK_L = 512


@triton.jit
def _grpo_group_advantage(rewards, mask, adv, n_groups, L, eps,
                          G: tl.constexpr, BLOCK_G: tl.constexpr, BLOCK_L: tl.constexpr,
                          NPROG: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_G)
    cols = tl.arange(0, BLOCK_L)
    row_ok = rows < G
    for grp in range(pid, n_groups, NPROG):
        base = grp * G * L
        acc = tl.zeros([BLOCK_G, BLOCK_L], dtype=tl.float32)
        for start in range(0, L, BLOCK_L):
            offs = base + rows[:, None] * L + start + cols[None, :]
            ok = row_ok[:, None] & (start + cols[None, :] < L)
            tile = tl.load(rewards + offs, mask=ok, other=0.0)
            acc += tile
        scores = tl.sum(acc, axis=1)
        mean = tl.sum(scores, axis=0) / G
        var = (tl.sum(scores * scores, axis=0) - G * mean * mean) / (G - 1)
        inv_std = 1.0 / (tl.sqrt(tl.maximum(var, 0.0)) + eps)
        a = (scores - mean) * inv_std
        for start in range(0, L, BLOCK_L):
            offs = base + rows[:, None] * L + start + cols[None, :]
            ok = row_ok[:, None] & (start + cols[None, :] < L)
            m = tl.load(mask + offs, mask=ok, other=0).to(tl.float32)
            tl.store(adv + offs, a[:, None] * m, mask=ok)


def run(rewards: torch.Tensor, mask: torch.Tensor, G: int) -> torch.Tensor:
    B, L = rewards.shape
    assert G >= 2 and B % G == 0
    adv = torch.empty((B, L), device=rewards.device, dtype=torch.float32)
    n_groups = B // G
    nprog = min(NUM_VECTOR_CORES, n_groups)
    _grpo_group_advantage[(nprog,)](rewards, mask, adv, n_groups, L, 1e-6,
                                    G=G, BLOCK_G=triton.next_power_of_2(G), BLOCK_L=BLOCK_L, NPROG=nprog)
    return adv
