"""N-gram (prompt-lookup) speculative proposer: longest suffix n-gram's first earlier match, then K drafts."""
import torch
import triton
import triton.language as tl

MIN_N, MAX_N, K = 2, 4, 5
NUM_VECTOR_CORES = 40
POS_SCALE = tl.constexpr(1048576.0)


@triton.jit
def _emit_drafts(row, out_row, n_tok, n_best, start, MIN_N: tl.constexpr, K: tl.constexpr, KPAD: tl.constexpr):
    found = (n_best >= MIN_N).to(tl.int32)
    j = tl.arange(0, KPAD)
    idx = tl.minimum(start * found + j, n_tok - 1)
    drafts = tl.load(row + idx, mask=j < K, other=0)
    tl.store(out_row + j, drafts * found + (found - 1), mask=j < K)


@triton.jit
def _ngram_propose(tokens, lengths, out, B, stride_t, stride_o,
                   MIN_N: tl.constexpr, MAX_N: tl.constexpr, K: tl.constexpr, KPAD: tl.constexpr,
                   BLOCK: tl.constexpr):
    for req in range(tl.program_id(0), B, tl.num_programs(0)):
        row = tokens + req * stride_t
        n_tok = tl.load(lengths + req)
        best = -1.0
        for e0 in range(0, n_tok - 1, BLOCK):
            ends = e0 + tl.arange(0, BLOCK)
            run = tl.full([BLOCK], 1.0, tl.float32)
            m = tl.zeros([BLOCK], dtype=tl.float32)
            for i in tl.static_range(MAX_N):
                window = tl.load(row + ends - i, mask=(ends < n_tok - 1) & (ends >= i), other=-1)
                suffix = tl.load(row + n_tok - 1 - i)
                run = run * (window.to(tl.float32) == suffix.to(tl.float32)).to(tl.float32)
                m += run
            key = m * POS_SCALE - ends.to(tl.float32)
            best = tl.maximum(best, tl.max(key, axis=0))
        # best packs (longest match m, first end position e) as m * POS_SCALE - e
        n_best = tl.ceil(best / POS_SCALE)
        start = (n_best * POS_SCALE - best).to(tl.int32) + 1
        _emit_drafts(row, out + req * stride_o, n_tok, n_best.to(tl.int32), start, MIN_N, K, KPAD)


def run(tokens: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    B, L = tokens.shape
    out = torch.empty((B, K), device=tokens.device, dtype=torch.int32)
    grid = (max(1, min(B, NUM_VECTOR_CORES)),)
    _ngram_propose[grid](tokens, lengths, out, B, tokens.stride(0), out.stride(0),
                         MIN_N=MIN_N, MAX_N=MAX_N, K=K, KPAD=triton.next_power_of_2(K), BLOCK=1024)
    return out
