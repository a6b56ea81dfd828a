"""Typical-acceptance verification of speculative drafts: posterior-entropy accept test, argmax recovery."""
import torch
import triton
import triton.language as tl

THRESHOLD, ALPHA, EPS = 0.09, 0.3, 1e-5
NUM_VECTOR_CORES = 40
BLOCK_V = 4096


@triton.jit
def _posterior_stats(probs, drafts, accepted, recovered, n_rows, V,
                     THRESHOLD: tl.constexpr, ALPHA: tl.constexpr, EPS: tl.constexpr, BLOCK: tl.constexpr):
    for row in range(tl.program_id(0), n_rows, tl.num_programs(0)):
        base = probs + row * V
        plogp = tl.zeros([BLOCK], dtype=tl.float32)
        best_val = -1.0
        best_idx = 0.0
        for v0 in range(0, V, BLOCK):
            cols = v0 + tl.arange(0, BLOCK)
            p = tl.load(base + cols, mask=cols < V, other=0.0)
            plogp += p * tl.log(p + EPS)
            tile_max = tl.max(p, axis=0)
            if tile_max > best_val:
                best_idx = tl.min(tl.where(p == tile_max, cols.to(tl.float32), 3.0e38), axis=0)
                best_val = tile_max
        entropy = -tl.sum(plogp, axis=0)
        cand = tl.load(base + tl.load(drafts + row))
        threshold = tl.minimum(THRESHOLD, ALPHA * tl.exp(-entropy))
        tl.store(accepted + row, (cand > threshold).to(tl.int32))
        tl.store(recovered + row, best_idx.to(tl.int32))


@triton.jit
def _typical_output(accepted, recovered, drafts, bonus, out, B, K: tl.constexpr, KPAD: tl.constexpr):
    for req in range(tl.program_id(0), B, tl.num_programs(0)):
        j = tl.arange(0, KPAD)
        in_k = j < K
        ok = tl.load(accepted + req * K + j, mask=in_k, other=1)
        limit = tl.minimum(tl.min(j + ok * KPAD, axis=0), K)
        before = (j < limit).to(tl.int32)
        at = (j == limit).to(tl.int32)
        d = tl.load(drafts + req * K + j, mask=in_k, other=0)
        r = tl.load(recovered + req * K + j, mask=in_k, other=0)
        tl.store(out + req * (K + 1) + j, d * before + r * at + (before + at - 1), mask=in_k)
        all_ok = (limit == K).to(tl.int32)
        tl.store(out + req * (K + 1) + K, tl.load(bonus + req) * all_ok + (all_ok - 1))


def run(target_probs: torch.Tensor, draft_token_ids: torch.Tensor, bonus_token_ids: torch.Tensor) -> torch.Tensor:
    B, K, V = target_probs.shape
    dev = target_probs.device
    accepted = torch.empty((B, K), device=dev, dtype=torch.int32)
    recovered = torch.empty((B, K), device=dev, dtype=torch.int32)
    out = torch.empty((B, K + 1), device=dev, dtype=torch.int32)
    _posterior_stats[(min(B * K, NUM_VECTOR_CORES),)](
        target_probs, draft_token_ids, accepted, recovered, B * K, V,
        THRESHOLD=THRESHOLD, ALPHA=ALPHA, EPS=EPS, BLOCK=BLOCK_V)
    _typical_output[(min(B, NUM_VECTOR_CORES),)](
        accepted, recovered, draft_token_ids, bonus_token_ids, out, B, K=K, KPAD=triton.next_power_of_2(K + 1))
    return out
