"""FPN top-down merge on the NPU: lateral + nearest 2x upsample of the coarser map, one pass.

Coarse row s of the flattened [N*C*Ht, Wt] map feeds fine rows 2s and 2s+1 of the [N*C*H, W] map,
so the vector-core programs walk tiles of coarse rows and write both fine rows of each."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40   # Atlas A2: 20 AI cores x 2 AIV
UB_TILE_ELEMS = 4096    # fp32 elements per fine-row tile, a few of them live in the 192 KB UB


@triton.jit
def _coarse_rows_widened(top_ptr, rows, row_mask, Wt, BLOCK_S: tl.constexpr, BLOCK_WT: tl.constexpr):
    wt = tl.arange(0, BLOCK_WT)
    mask = row_mask[:, None] & (wt[None, :] < Wt)
    t = tl.load(top_ptr + rows[:, None] * Wt + wt[None, :], mask=mask, other=0.0)
    t = tl.broadcast_to(t[:, :, None], (BLOCK_S, BLOCK_WT, 2))
    return tl.reshape(t, (BLOCK_S, 2 * BLOCK_WT))


@triton.jit
def fpn_upsample_add_kernel(lat_ptr, top_ptr, out_ptr, n_coarse_rows, W, Wt,
                            NUM_PROGS: tl.constexpr, BLOCK_S: tl.constexpr, BLOCK_WT: tl.constexpr):
    pid = tl.program_id(0)
    ow = tl.arange(0, 2 * BLOCK_WT)
    col_mask = ow < W
    n_tiles = tl.cdiv(n_coarse_rows, BLOCK_S)
    for tile in range(pid, n_tiles, NUM_PROGS):
        rows = tile * BLOCK_S + tl.arange(0, BLOCK_S)
        row_mask = rows < n_coarse_rows
        up = _coarse_rows_widened(top_ptr, rows, row_mask, Wt, BLOCK_S, BLOCK_WT)
        mask = row_mask[:, None] & col_mask[None, :]
        for dy in tl.static_range(2):
            fine = (2 * rows + dy)[:, None] * W + ow[None, :]
            lat = tl.load(lat_ptr + fine, mask=mask, other=0.0)
            tl.store(out_ptr + fine, lat + up, mask=mask)


def run(lateral: torch.Tensor, top: torch.Tensor) -> torch.Tensor:
    N, C, H, W = lateral.shape
    Ht, Wt = top.shape[-2:]
    assert H == 2 * Ht and W == 2 * Wt
    out = torch.empty_like(lateral)
    n_coarse_rows = N * C * Ht
    block_wt = triton.next_power_of_2(Wt)
    block_s = max(1, UB_TILE_ELEMS // (2 * block_wt))
    grid = (min(NUM_VECTOR_CORES, triton.cdiv(n_coarse_rows, block_s)),)
    fpn_upsample_add_kernel[grid](lateral, top, out, n_coarse_rows, W, Wt,
                                  NUM_PROGS=grid[0], BLOCK_S=block_s, BLOCK_WT=block_wt)
    return out
