"""Megatron reset_attention_mask: causal mask of packed rows cut at every EOD, uint8 [B, 1, S, S] (1 = masked)."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _eod_reset_mask(eod_index, n_eod, mask, S, n_tiles, n_col_blocks,
                    BI: tl.constexpr, BJ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_row_blocks = tl.cdiv(S, BI)
    for tile in range(pid, n_tiles, nprog):
        b = tile // (n_row_blocks * n_col_blocks)
        r0 = (tile // n_col_blocks) % n_row_blocks * BI
        c0 = (tile % n_col_blocks) * BJ
        rows = r0 + tl.arange(0, BI)
        cols = c0 + tl.arange(0, BJ)
        rows_f = rows.to(tl.float32)
        cols_f = cols.to(tl.float32)
        doc_r = tl.zeros((BI,), dtype=tl.float32)
        doc_c = tl.zeros((BJ,), dtype=tl.float32)
        for k in range(0, tl.load(n_eod + b)):
            e = tl.load(eod_index + b * S + k).to(tl.float32)
            doc_r += (rows_f > e).to(tl.float32)
            doc_c += (cols_f > e).to(tl.float32)
        masked = (cols_f[None, :] > rows_f[:, None]) | (doc_c[None, :] != doc_r[:, None])
        inside = (rows[:, None] < S) & (cols[None, :] < S)
        tl.store(mask + b * S * S + rows[:, None] * S + cols[None, :], masked.to(tl.uint8), mask=inside)


def run(eod_index: torch.Tensor, n_eod: torch.Tensor) -> torch.Tensor:
    B, S = eod_index.shape
    mask = torch.empty((B, 1, S, S), dtype=torch.uint8, device=eod_index.device)
    BI = min(32, triton.next_power_of_2(S))
    BJ = min(512, triton.next_power_of_2(S))
    n_col_blocks = triton.cdiv(S, BJ)
    n_tiles = B * triton.cdiv(S, BI) * n_col_blocks
    grid = (min(NUM_VECTOR_CORES, n_tiles),)
    _eod_reset_mask[grid](eod_index, n_eod, mask, S, n_tiles, n_col_blocks, BI=BI, BJ=BJ)
    return mask
