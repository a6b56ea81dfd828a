"""VideoMAE tube masking: copy each clip's visible token rows into x_vis [B, V, C]."""
import torch
import triton
import triton.language as tl


@triton.jit
def _tube_gather_rows(x, ids, out, N, V, C, n_tiles, tiles_per_clip,
                      ROWS: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    r = tl.arange(0, ROWS)
    c = tl.arange(0, BLOCK_C)
    for tile in range(pid, n_tiles, nprog):
        b = tile // tiles_per_clip
        v = (tile % tiles_per_clip) * ROWS + r
        vm = v < V
        tok = tl.load(ids + b * V + v, mask=vm, other=0)
        src = x + (b * N + tok)[:, None] * C
        dst = out + (b * V + v)[:, None] * C
        for c0 in range(0, C, BLOCK_C):
            m = vm[:, None] & (c0 + c[None, :] < C)
            rows = tl.load(src + c0 + c[None, :], mask=m, other=0.0)
            tl.store(dst + c0 + c[None, :], rows, mask=m)


def run(x: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    B, N, C = x.shape
    V = ids.shape[1]
    out = torch.empty((B, V, C), device=x.device, dtype=x.dtype)
    ROWS = 32
    BLOCK_C = min(256, triton.next_power_of_2(C))
    tiles_per_clip = triton.cdiv(V, ROWS)
    n_tiles = B * tiles_per_clip
    _tube_gather_rows[(min(40, n_tiles),)](x, ids, out, N, V, C, n_tiles, tiles_per_clip,
                                           ROWS=ROWS, BLOCK_C=BLOCK_C)
    return out
