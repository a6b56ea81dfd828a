"""Categorical (inverse-CDF) token sampling for the Atlas A2 (910B): one program per vector core takes
a slice of the requests; per request a max pass and a mass pass over vocabulary tiles, then the search
for the token whose cumulative mass reaches u * total, first over the tile masses and then inside the
chosen tile."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40        # Atlas A2 (910B3): 20 AI cores x 2 vector units
VOCAB_TILE = 4096            # fp32 tile: 16 KB per live copy in the 192 KB UB


@triton.jit
def _scaled_tile(logits_ptr, row_off, idx, vocab, inv_temp):
    x = tl.load(logits_ptr + row_off + idx, mask=idx < vocab, other=float("-inf"))
    return x * inv_temp


@triton.jit
def _row_max(logits_ptr, row_off, vocab, inv_temp, TILE: tl.constexpr, NUM_TILES: tl.constexpr):
    offs = tl.arange(0, TILE)
    running = tl.full([TILE], float("-inf"), dtype=tl.float32)
    for t in range(NUM_TILES):
        running = tl.maximum(running, _scaled_tile(logits_ptr, row_off, t * TILE + offs, vocab, inv_temp))
    return tl.max(running, axis=0)


@triton.jit
def _tile_masses(logits_ptr, row_off, vocab, inv_temp, row_max, TILE: tl.constexpr,
                 NUM_TILES: tl.constexpr, TILES_P2: tl.constexpr):
    offs = tl.arange(0, TILE)
    tile_ids = tl.arange(0, TILES_P2)
    masses = tl.zeros([TILES_P2], dtype=tl.float32)
    for t in range(NUM_TILES):
        w = tl.exp(_scaled_tile(logits_ptr, row_off, t * TILE + offs, vocab, inv_temp) - row_max)
        masses = tl.where(tile_ids == t, tl.sum(w, axis=0), masses)
    return masses


@triton.jit
def _find_tile(masses, target, NUM_TILES: tl.constexpr, TILES_P2: tl.constexpr):
    tile_ids = tl.arange(0, TILES_P2)
    t = tl.full((), 0, dtype=tl.int32)
    prefix = tl.full((), 0.0, dtype=tl.float32)
    mass = tl.sum(tl.where(tile_ids == 0, masses, 0.0), axis=0)
    while (t < NUM_TILES - 1) & (prefix + mass < target):
        prefix += mass
        t += 1
        mass = tl.sum(tl.where(tile_ids == t, masses, 0.0), axis=0)
    return t, prefix


@triton.jit
def _find_token(logits_ptr, row_off, vocab, inv_temp, row_max, t, prefix, target, TILE: tl.constexpr):
    i = t * TILE
    end = tl.minimum(i + TILE, vocab)
    chosen = i
    running = prefix
    while (i < end) & (running < target):
        running += tl.exp(tl.load(logits_ptr + row_off + i) * inv_temp - row_max)
        chosen = i
        i += 1
    return chosen


@triton.jit
def categorical_sample_kernel(logits_ptr, temp_ptr, uniform_ptr, out_ptr, n_rows, vocab, stride_row,
                              rows_per_prog, TILE: tl.constexpr, NUM_TILES: tl.constexpr,
                              TILES_P2: tl.constexpr):
    pid = tl.program_id(0)
    row_start = pid * rows_per_prog
    row_end = tl.minimum(row_start + rows_per_prog, n_rows)
    for row in range(row_start, row_end):
        row_off = row * stride_row
        inv_temp = 1.0 / tl.load(temp_ptr + row)
        row_max = _row_max(logits_ptr, row_off, vocab, inv_temp, TILE, NUM_TILES)
        masses = _tile_masses(logits_ptr, row_off, vocab, inv_temp, row_max, TILE, NUM_TILES, TILES_P2)
        target = tl.load(uniform_ptr + row) * tl.sum(masses, axis=0)
        t, prefix = _find_tile(masses, target, NUM_TILES, TILES_P2)
        token = _find_token(logits_ptr, row_off, vocab, inv_temp, row_max, t, prefix, target, TILE)
        tl.store(out_ptr + row, token.to(tl.int64))


def run(logits: torch.Tensor, temperature: torch.Tensor, uniform: torch.Tensor) -> torch.Tensor:
    n_rows, vocab = logits.shape
    out = torch.empty(n_rows, dtype=torch.int64, device=logits.device)
    tile = min(VOCAB_TILE, triton.next_power_of_2(vocab))
    num_tiles = triton.cdiv(vocab, tile)
    grid = (min(n_rows, NUM_VECTOR_CORES),)
    rows_per_prog = triton.cdiv(n_rows, grid[0])
    categorical_sample_kernel[grid](
        logits, temperature, uniform, out, n_rows, vocab, logits.stride(0), rows_per_prog,
        TILE=tile, NUM_TILES=num_tiles, TILES_P2=triton.next_power_of_2(num_tiles),
    )
    return out
