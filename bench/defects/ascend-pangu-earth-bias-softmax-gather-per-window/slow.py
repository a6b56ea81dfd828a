"""Pangu-Weather window attention: Earth-specific position bias added inside the row softmax."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40
ROWS = 16


@triton.jit
def _earth_bias_softmax(scores, table, pos_index, probs, n_tiles, n_types, heads, N,
                        NPROG: tl.constexpr, ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    n_rb = tl.cdiv(N, ROWS)
    cols = tl.arange(0, BLOCK_N)
    for tile in range(tl.program_id(0), n_tiles, NPROG):
        wh = tile // n_rb
        head = wh % heads
        wtype = (wh // heads) % n_types
        rows = (tile % n_rb) * ROWS + tl.arange(0, ROWS)
        mask = (rows < N)[:, None] & (cols < N)[None, :]
        rc = rows[:, None] * N + cols[None, :]
        s = tl.load(scores + wh * N * N + rc, mask=mask, other=-float("inf"))
        idx = tl.load(pos_index + rc, mask=mask, other=0)
        b = tl.load(table + (idx * n_types + wtype) * heads + head, mask=mask, other=0.0)
        x = s + b
        e = tl.exp(x - tl.max(x, axis=1)[:, None])
        p = e / tl.sum(e, axis=1)[:, None]
        tl.store(probs + wh * N * N + rc, p, mask=mask)


def run(scores: torch.Tensor, table: torch.Tensor, pos_index: torch.Tensor) -> torch.Tensor:
    nw, heads, N, _ = scores.shape
    n_types = table.shape[1]
    probs = torch.empty_like(scores)
    n_tiles = nw * heads * triton.cdiv(N, ROWS)
    nprog = min(n_tiles, NUM_CORES)
    _earth_bias_softmax[(nprog,)](scores, table, pos_index, probs, n_tiles, n_types, heads, N,
                                  NPROG=nprog, ROWS=ROWS, BLOCK_N=triton.next_power_of_2(N))
    return probs
