"""Cycles Russian roulette after shade_surface, then the survivors compacted into the next kernel's queue."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
PRNG_BOUNCE_NUM = tl.constexpr(8)
PRNG_TERMINATE = tl.constexpr(7)


@triton.jit
def _rot(x, k: tl.constexpr):
    return (x << k) | (x >> (32 - k))


@triton.jit
def _hash_uint3(kx, ky, kz):
    # Bob Jenkins' lookup3 final(), as in Cycles util/hash.h
    a = kx + 0xDEADBEEF + (3 << 2) + 13
    b = ky + 0xDEADBEEF + (3 << 2) + 13
    c = kz + 0xDEADBEEF + (3 << 2) + 13
    c = (c ^ b) - _rot(b, 14)
    a = (a ^ c) - _rot(c, 11)
    b = (b ^ a) - _rot(a, 25)
    c = (c ^ b) - _rot(b, 16)
    a = (a ^ c) - _rot(c, 4)
    b = (b ^ a) - _rot(a, 14)
    c = (c ^ b) - _rot(b, 24)
    return c


@triton.jit
def _russian_roulette(throughput, bounce, rng_hash, sample, out_throughput, survive, block_count,
                      n, min_bounce, max_bounce, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    state = pid * BLOCK + tl.arange(0, BLOCK)
    live = state < n
    b = tl.load(bounce + state, mask=live, other=0)
    tx = tl.load(throughput + 3 * state, mask=live, other=0.0)
    ty = tl.load(throughput + 3 * state + 1, mask=live, other=0.0)
    tz = tl.load(throughput + 3 * state + 2, mask=live, other=0.0)

    # path_state_continuation_probability
    p = tl.minimum(tl.sqrt_rn(tl.maximum(tl.abs(tx), tl.maximum(tl.abs(ty), tl.abs(tz)))), 1.0)
    p = tl.where(b <= min_bounce, 1.0, p)
    p = tl.where(b >= max_bounce, 0.0, p)

    # terminate draw
    h = tl.load(rng_hash + state, mask=live, other=0).to(tl.uint32, bitcast=True)
    s = tl.load(sample + state, mask=live, other=0).to(tl.uint32)
    dim = (b * PRNG_BOUNCE_NUM + PRNG_TERMINATE).to(tl.uint32)
    rand = _hash_uint3(h, s, dim).to(tl.float32) * (1.0 / 4294967808.0)
    alive = live & ((p == 1.0) | (rand < p))

    inv_p = 1.0 / tl.where(alive, p, 1.0)
    tl.store(out_throughput + 3 * state, tl.where(alive, tx * inv_p, 0.0), mask=live)
    tl.store(out_throughput + 3 * state + 1, tl.where(alive, ty * inv_p, 0.0), mask=live)
    tl.store(out_throughput + 3 * state + 2, tl.where(alive, tz * inv_p, 0.0), mask=live)
    flag = alive.to(tl.int32)
    tl.store(survive + state, flag, mask=live)
    tl.store(block_count + pid, tl.sum(flag, axis=0))


@triton.jit
def _compact_queue(survive, block_count, next_queue, num_queued, n, n_blocks,
                   BLOCK: tl.constexpr, BLOCKS_POW2: tl.constexpr):
    pid = tl.program_id(0)
    blocks = tl.arange(0, BLOCKS_POW2)
    offset = tl.sum(tl.load(block_count + blocks, mask=blocks < pid, other=0), axis=0)
    state = pid * BLOCK + tl.arange(0, BLOCK)
    flag = tl.load(survive + state, mask=state < n, other=0)
    alive_rank = tl.cumsum(flag, axis=0) - flag
    dead_rank = tl.arange(0, BLOCK) - alive_rank
    slot = tl.where(flag != 0, offset + alive_rank, n - 1 - (pid * BLOCK - offset + dead_rank))
    tl.store(next_queue + slot, state, mask=state < n)
    if pid == n_blocks - 1:
        tl.store(num_queued, offset + tl.sum(flag, axis=0))


def run(throughput, bounce, rng_hash, sample, min_bounce, max_bounce) -> tuple:
    n = throughput.shape[0]
    dev = throughput.device
    n_blocks = triton.cdiv(n, BLOCK)
    out_throughput = torch.empty_like(throughput)
    survive = torch.empty(n, device=dev, dtype=torch.int32)
    block_count = torch.empty(n_blocks, device=dev, dtype=torch.int32)
    next_queue = torch.empty(n, device=dev, dtype=torch.int32)
    num_queued = torch.empty(1, device=dev, dtype=torch.int32)
    _russian_roulette[(n_blocks,)](throughput, bounce, rng_hash, sample, out_throughput, survive, block_count,
                                   n, min_bounce, max_bounce, BLOCK=BLOCK, num_warps=4)
    _compact_queue[(n_blocks,)](survive, block_count, next_queue, num_queued, n, n_blocks,
                                BLOCK=BLOCK, BLOCKS_POW2=triton.next_power_of_2(n_blocks), num_warps=4)
    return out_throughput, next_queue, num_queued
