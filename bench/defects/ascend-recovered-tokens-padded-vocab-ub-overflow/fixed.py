"""sample_recovered_tokens for triton-ascend: one program per AIV core, each looping over draft positions
and walking the vocabulary in UB-sized tiles with a running (max, argmax)."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40  # Ascend 910B AIV (vector) cores


@triton.jit
def recovered_tokens_kernel(tgt_ptr, drf_ptr, q_ptr, out_ptr, n_rows, num_spec, vocab,
                            NUM_PROGS: tl.constexpr, BLOCK_V: tl.constexpr):
    pid = tl.program_id(0)
    for r in range(pid, n_rows, NUM_PROGS):
        req = r // num_spec
        row = r * vocab
        qrow = req * vocab
        best = -1.0
        best_idx = 0
        for start in range(0, vocab, BLOCK_V):
            offs = start + tl.arange(0, BLOCK_V)
            m = offs < vocab
            t = tl.load(tgt_ptr + row + offs, mask=m, other=0.0)
            d = tl.load(drf_ptr + row + offs, mask=m, other=0.0)
            q = tl.load(q_ptr + qrow + offs, mask=m, other=1.0)
            score = tl.where(m, tl.maximum(t - d, 0.0) / q, -1.0)
            tile_best = tl.max(score, axis=0)
            tile_idx = start + tl.argmax(score, axis=0)
            take = tile_best > best
            best_idx = tl.where(take, tile_idx, best_idx)
            best = tl.where(take, tile_best, best)
        tl.store(out_ptr + r, best_idx.to(tl.int32))


def run(target_probs, draft_probs, q, num_spec):
    n_rows, V = target_probs.shape
    out = torch.empty(n_rows, dtype=torch.int32, device=target_probs.device)
    progs = min(NUM_CORES, n_rows)
    recovered_tokens_kernel[(progs,)](target_probs, draft_probs, q, out, n_rows, num_spec, V,
                                      NUM_PROGS=progs, BLOCK_V=4096)
    return out
