"""BM25 term-at-a-time scoring: one program per (query, term) walks that term's posting list."""
import torch
import triton
import triton.language as tl

K1 = tl.constexpr(0.82)
B = tl.constexpr(0.68)


@triton.jit
def _bm25_taat(post_docs, post_tf, term_off, doc_len, query_terms, coll_stats, scores,
               T, D, BLOCK: tl.constexpr):
    q = tl.program_id(0)
    slot = tl.program_id(1)
    term = tl.load(query_terms + q * T + slot)
    start = tl.load(term_off + tl.maximum(term, 0))
    stop = tl.where(term >= 0, tl.load(term_off + tl.maximum(term, 0) + 1), start)
    n_docs = tl.load(coll_stats)
    avgdl = tl.load(coll_stats + 1)
    df = (stop - start).to(tl.float32)
    idf = tl.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))
    row = scores + q.to(tl.int64) * D
    for off in range(start, stop, BLOCK):
        i = off + tl.arange(0, BLOCK)
        m = i < stop
        doc = tl.load(post_docs + i, mask=m, other=0)
        tf = tl.load(post_tf + i, mask=m, other=0).to(tl.float32)
        dl = tl.load(doc_len + doc, mask=m, other=0).to(tl.float32)
        norm = K1 * (1.0 - B + B * dl / avgdl)
        tl.atomic_add(row + doc, idf * tf / (tf + norm), mask=m, sem="relaxed")


def run(post_docs, post_tf, term_off, doc_len, query_terms, coll_stats) -> torch.Tensor:
    Q, T = query_terms.shape
    D = doc_len.numel()
    scores = torch.zeros(Q, D, device=post_docs.device, dtype=torch.float32)
    BLOCK = 1024
    grid = (Q, T)
    _bm25_taat[grid](post_docs, post_tf, term_off, doc_len, query_terms, coll_stats, scores,
                     T, D, BLOCK=BLOCK, num_warps=4)
    return scores
