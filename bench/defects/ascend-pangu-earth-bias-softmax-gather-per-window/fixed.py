"""Pangu-Weather window attention: Earth-specific position bias added inside the row softmax."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40
ROWS = 16
CHUNK = 1024


@triton.jit
def _expand_bias(table, pos_index, bias, n_tiles, n_types, heads, NN,
                 NPROG: tl.constexpr, CHUNK: tl.constexpr):
    n_chunks = tl.cdiv(NN, CHUNK)
    for tile in range(tl.program_id(0), n_tiles, NPROG):
        th = tile // n_chunks
        head = th % heads
        wtype = th // heads
        k = (tile % n_chunks) * CHUNK + tl.arange(0, CHUNK)
        mask = k < NN
        idx = tl.load(pos_index + k, mask=mask, other=0)
        b = tl.load(table + (idx * n_types + wtype) * heads + head, mask=mask, other=0.0)
        tl.store(bias + th * NN + k, b, mask=mask)


@triton.jit
def _earth_bias_softmax(scores, bias, probs, n_tiles, n_types, heads, N,
                        NPROG: tl.constexpr, ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    n_rb = tl.cdiv(N, ROWS)
    cols = tl.arange(0, BLOCK_N)
    for tile in range(tl.program_id(0), n_tiles, NPROG):
        wh = tile // n_rb
        th = wh % (n_types * heads)
        rows = (tile % n_rb) * ROWS + tl.arange(0, ROWS)
        mask = (rows < N)[:, None] & (cols < N)[None, :]
        rc = rows[:, None] * N + cols[None, :]
        s = tl.load(scores + wh * N * N + rc, mask=mask, other=-float("inf"))
        b = tl.load(bias + th * N * N + rc, mask=mask, other=0.0)
        x = s + b
        e = tl.exp(x - tl.max(x, axis=1)[:, None])
        p = e / tl.sum(e, axis=1)[:, None]
        tl.store(probs + wh * N * N + rc, p, mask=mask)


def run(scores: torch.Tensor, table: torch.Tensor, pos_index: torch.Tensor) -> torch.Tensor:
    nw, heads, N, _ = scores.shape
    n_types = table.shape[1]
    bias = torch.empty((n_types, heads, N, N), device=scores.device, dtype=torch.float32)
    n_exp = n_types * heads * triton.cdiv(N * N, CHUNK)
    nprog = min(n_exp, NUM_CORES)
    _expand_bias[(nprog,)](table, pos_index, bias, n_exp, n_types, heads, N * N, NPROG=nprog, CHUNK=CHUNK)
    probs = torch.empty_like(scores)
    n_tiles = nw * heads * triton.cdiv(N, ROWS)
    nprog = min(n_tiles, NUM_CORES)
    _earth_bias_softmax[(nprog,)](scores, bias, probs, n_tiles, n_types, heads, N,
                                  NPROG=nprog, ROWS=ROWS, BLOCK_N=triton.next_power_of_2(N))
    return probs
