"""CTC greedy decoding on the Ascend vector cores: an argmax kernel over frame tiles, then a
collapse kernel that merges repeats, drops blanks and packs each utterance's ids to the left."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40  # Atlas A2 (910B): 20 AI cores x 2 AIV


@triton.jit
def ctc_frame_argmax_kernel(lp_ptr, ids_ptr, n_rows, n_tiles, V: tl.constexpr, BLOCK_V: tl.constexpr,
                            ROWS: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0)
    v = tl.arange(0, BLOCK_V)
    for tile in range(pid, n_tiles, step):
        rows = tile * ROWS + tl.arange(0, ROWS)
        mask = (rows[:, None] < n_rows) & (v[None, :] < V)
        x = tl.load(lp_ptr + rows[:, None] * V + v[None, :], mask=mask, other=float("-inf"))
        best = tl.argmax(x, axis=1)
        tl.store(ids_ptr + rows, best.to(tl.int32), mask=rows < n_rows)


@triton.jit
def _fill_tail(out_row, start, T, BLOCK_T: tl.constexpr):
    for t0 in range(0, T, BLOCK_T):
        t = t0 + tl.arange(0, BLOCK_T)
        tl.store(out_row + t, tl.full([BLOCK_T], -1, tl.int32), mask=(t >= start) & (t < T))


@triton.jit
def ctc_collapse_kernel(ids_ptr, len_ptr, out_ptr, out_len_ptr, B, T, BLANK: tl.constexpr, BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0)
    for b in range(pid, B, step):
        n = tl.load(len_ptr + b)
        ids_row = ids_ptr + b * T
        out_row = out_ptr + b * T
        count = 0
        for t0 in range(0, n, BLOCK_T):
            t = t0 + tl.arange(0, BLOCK_T)
            valid = t < n
            cur = tl.load(ids_row + t, mask=valid, other=BLANK)
            prev = tl.load(ids_row + t - 1, mask=valid & (t > 0), other=-1)
            keep = (cur != BLANK) & (cur != prev) & valid
            slot = count + tl.cumsum(keep.to(tl.int32), axis=0) - 1
            tl.store(out_row + slot, cur, mask=keep)
            count += tl.sum(keep.to(tl.int32), axis=0)
        _fill_tail(out_row, count, T, BLOCK_T)
        tl.store(out_len_ptr + b, count)


def run(log_probs: torch.Tensor, lengths: torch.Tensor) -> tuple:
    B, T, V = log_probs.shape
    ids = torch.empty((B, T), dtype=torch.int32, device=log_probs.device)
    tokens = torch.empty((B, T), dtype=torch.int32, device=log_probs.device)
    out_len = torch.empty(B, dtype=torch.int32, device=log_probs.device)
    rows = 64
    n_tiles = triton.cdiv(B * T, rows)
    argmax_grid = (min(VECTOR_CORES, n_tiles),)
    ctc_frame_argmax_kernel[argmax_grid](log_probs, ids, B * T, n_tiles, V=V, BLOCK_V=triton.next_power_of_2(V),
                                         ROWS=rows)
    collapse_grid = (min(VECTOR_CORES, B),)
    ctc_collapse_kernel[collapse_grid](ids, lengths, tokens, out_len, B, T, BLANK=0, BLOCK_T=256)
    return tokens, out_len
