"""N-gram (prompt-lookup) speculative proposer: longest suffix n-gram's first earlier match, then K drafts."""
import torch
import triton
import triton.language as tl

MIN_N, MAX_N, K = 2, 4, 5
NUM_VECTOR_CORES = 40


@triton.jit
def _emit_drafts(row, out_row, n_tok, n_best, start, MIN_N: tl.constexpr, K: tl.constexpr, KPAD: tl.constexpr):
    found = (n_best >= MIN_N).to(tl.int32)
    j = tl.arange(0, KPAD)
    idx = tl.minimum(start * found + j, n_tok - 1)
    drafts = tl.load(row + idx, mask=j < K, other=0)
    tl.store(out_row + j, drafts * found + (found - 1), mask=j < K)


@triton.jit
def _suffix_match_len(row, end, n_tok, MAX_N: tl.constexpr):
    run = 1
    m = 0
    for i in tl.static_range(MAX_N):
        ok = end >= i
        window = tl.load(row + end - i, mask=ok, other=-1)
        suffix = tl.load(row + n_tok - 1 - i)
        run = run * (window == suffix).to(tl.int32)
        m += run
    return m


@triton.jit
def _ngram_propose(tokens, lengths, out, B, stride_t, stride_o,
                   MIN_N: tl.constexpr, MAX_N: tl.constexpr, K: tl.constexpr, KPAD: tl.constexpr):
    for req in range(tl.program_id(0), B, tl.num_programs(0)):
        row = tokens + req * stride_t
        n_tok = tl.load(lengths + req)
        n_best = MIN_N - 1
        e_best = 0
        for end in range(0, n_tok - 1):
            m = _suffix_match_len(row, end, n_tok, MAX_N)
            if m > n_best:
                n_best = m
                e_best = end
        _emit_drafts(row, out + req * stride_o, n_tok, n_best, e_best + 1, MIN_N, K, KPAD)


def run(tokens: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    B, L = tokens.shape
    out = torch.empty((B, K), device=tokens.device, dtype=torch.int32)
    grid = (max(1, min(B, NUM_VECTOR_CORES)),)
    _ngram_propose[grid](tokens, lengths, out, B, tokens.stride(0), out.stride(0),
                         MIN_N=MIN_N, MAX_N=MAX_N, K=K, KPAD=triton.next_power_of_2(K))
    return out
