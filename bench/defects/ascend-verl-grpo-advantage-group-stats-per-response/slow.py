"""GRPO outcome advantages: group-normalised response scores broadcast over the response mask."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40  # Atlas A2 (910B4) AIV cores
BLOCK_L = 512


@triton.jit
def _grpo_response_advantage(rewards, mask, adv, B, L, eps,
                             G: tl.constexpr, BLOCK_G: tl.constexpr, BLOCK_L: tl.constexpr,
                             NPROG: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, BLOCK_G)
    cols = tl.arange(0, BLOCK_L)
    row_ok = rows < G
    for resp in range(pid, B, NPROG):
        base = (resp // G) * G * L
        row = resp * L
        acc = tl.zeros([BLOCK_G, BLOCK_L], dtype=tl.float32)
        own = tl.zeros([BLOCK_L], dtype=tl.float32)
        for start in range(0, L, BLOCK_L):
            col_ok = start + cols < L
            offs = base + rows[:, None] * L + start + cols[None, :]
            tile = tl.load(rewards + offs, mask=row_ok[:, None] & col_ok[None, :], other=0.0)
            acc += tile
            own += tl.load(rewards + row + start + cols, mask=col_ok, other=0.0)
        scores = tl.sum(acc, axis=1)
        mean = tl.sum(scores, axis=0) / G
        var = (tl.sum(scores * scores, axis=0) - G * mean * mean) / (G - 1)
        inv_std = 1.0 / (tl.sqrt(tl.maximum(var, 0.0)) + eps)
        a = (tl.sum(own, axis=0) - mean) * inv_std
        for start in range(0, L, BLOCK_L):
            col_ok = start + cols < L
            m = tl.load(mask + row + start + cols, mask=col_ok, other=0).to(tl.float32)
            tl.store(adv + row + start + cols, a * m, mask=col_ok)


def run(rewards: torch.Tensor, mask: torch.Tensor, G: int) -> torch.Tensor:
    B, L = rewards.shape
    assert G >= 2 and B % G == 0
    adv = torch.empty((B, L), device=rewards.device, dtype=torch.float32)
    nprog = min(NUM_VECTOR_CORES, B)
    _grpo_response_advantage[(nprog,)](rewards, mask, adv, B, L, 1e-6,
                                       G=G, BLOCK_G=triton.next_power_of_2(G), BLOCK_L=BLOCK_L, NPROG=nprog)
    return adv
