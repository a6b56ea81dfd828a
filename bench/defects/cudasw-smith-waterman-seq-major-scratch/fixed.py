"""Smith-Waterman database search, inter-task: one lane per subject, the query in strips of 4 rows."""
import torch
import triton
import triton.language as tl

BLOCK = 128
NEG = -(1 << 20)


@triton.jit
def _cell(h_diag, h_left, e, f, h_up, s, gap_open, gap_ext):
    e = tl.maximum(e - gap_ext, h_left - gap_open)
    f = tl.maximum(f - gap_ext, h_up - gap_open)
    h = tl.maximum(tl.maximum(h_diag + s, e), tl.maximum(f, 0))
    return h, e, f


@triton.jit
def _sw_intertask(query, db_t, lengths, blosum, h_strip, f_strip, scores, n_seqs, query_len,
                  gap_open, gap_ext, BLOCK: tl.constexpr, NEG: tl.constexpr):
    seq = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    seq_ok = seq < n_seqs
    length = tl.load(lengths + seq, mask=seq_ok, other=0)
    n_cols = tl.max(length, axis=0)
    best = tl.zeros([BLOCK], dtype=tl.int32)
    for i0 in range(0, query_len, 4):
        # BLOSUM62 rows of the strip's 4 query residues; rows past the query end score NEG
        row0 = blosum + tl.load(query + i0).to(tl.int32) * 20
        row1 = blosum + tl.load(query + i0 + 1, mask=i0 + 1 < query_len, other=0).to(tl.int32) * 20
        row2 = blosum + tl.load(query + i0 + 2, mask=i0 + 2 < query_len, other=0).to(tl.int32) * 20
        row3 = blosum + tl.load(query + i0 + 3, mask=i0 + 3 < query_len, other=0).to(tl.int32) * 20
        pen1 = tl.where(i0 + 1 < query_len, 0, NEG)
        pen2 = tl.where(i0 + 2 < query_len, 0, NEG)
        pen3 = tl.where(i0 + 3 < query_len, 0, NEG)
        has_above = i0 > 0
        h0 = tl.zeros([BLOCK], dtype=tl.int32)
        h1 = tl.zeros([BLOCK], dtype=tl.int32)
        h2 = tl.zeros([BLOCK], dtype=tl.int32)
        h3 = tl.zeros([BLOCK], dtype=tl.int32)
        e0 = tl.full([BLOCK], NEG, dtype=tl.int32)
        e1 = tl.full([BLOCK], NEG, dtype=tl.int32)
        e2 = tl.full([BLOCK], NEG, dtype=tl.int32)
        e3 = tl.full([BLOCK], NEG, dtype=tl.int32)
        h_diag = tl.zeros([BLOCK], dtype=tl.int32)
        for j in range(0, n_cols):
            live = seq_ok & (j < length)
            res = tl.load(db_t + j * n_seqs + seq, mask=live, other=0).to(tl.int32)
            h_up = tl.load(h_strip + j * n_seqs + seq, mask=live & has_above, other=0)
            f = tl.load(f_strip + j * n_seqs + seq, mask=live & has_above, other=NEG)
            n0, e0, f = _cell(h_diag, h0, e0, f, h_up, tl.load(row0 + res), gap_open, gap_ext)
            n1, e1, f = _cell(h0, h1, e1, f, n0, tl.load(row1 + res) + pen1, gap_open, gap_ext)
            n2, e2, f = _cell(h1, h2, e2, f, n1, tl.load(row2 + res) + pen2, gap_open, gap_ext)
            n3, e3, f = _cell(h2, h3, e3, f, n2, tl.load(row3 + res) + pen3, gap_open, gap_ext)
            h_diag = h_up
            h0, h1, h2, h3 = n0, n1, n2, n3
            top = tl.maximum(tl.maximum(n0, n1), tl.maximum(n2, n3))
            best = tl.where(live, tl.maximum(best, top), best)
            tl.store(h_strip + j * n_seqs + seq, n3, mask=live)
            tl.store(f_strip + j * n_seqs + seq, f, mask=live)
    tl.store(scores + seq, best, mask=seq_ok)


def run(query: torch.Tensor, db_t: torch.Tensor, lengths: torch.Tensor, blosum: torch.Tensor,
        gap_open: int, gap_ext: int) -> torch.Tensor:
    max_len, n_seqs = db_t.shape
    # H and F of each strip's last row, per subject column: interleaved, column j of all subjects together
    h_strip = torch.empty(max_len, n_seqs, device=db_t.device, dtype=torch.int32)
    f_strip = torch.empty(max_len, n_seqs, device=db_t.device, dtype=torch.int32)
    scores = torch.empty(n_seqs, device=db_t.device, dtype=torch.int32)
    grid = (triton.cdiv(n_seqs, BLOCK),)
    _sw_intertask[grid](query, db_t, lengths, blosum, h_strip, f_strip, scores, n_seqs, query.numel(),
                        gap_open, gap_ext, BLOCK=BLOCK, NEG=NEG, num_warps=4)
    return scores
