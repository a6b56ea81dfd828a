"""Ethash hashimoto: 64 dependent 128-byte DAG page reads per nonce mixed into a 32-word state with FNV,
then the 4-to-1 FNV compression of the mix (ethminer's search kernel, memory-hard stage)."""
import torch
import triton
import triton.language as tl

FNV_PRIME = tl.constexpr(0x01000193)
ACCESSES = tl.constexpr(64)
BLOCK_N = 16


@triton.jit
def _hashimoto_mix(seed, dag, cmix, n, n_pages, BLOCK_N: tl.constexpr):
    nonce = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    live = nonce < n
    w = tl.arange(0, 32)
    # the 128-byte mix starts as the 64-byte seed twice
    mix = tl.load(seed + nonce[:, None] * 16 + (w[None, :] % 16), mask=live[:, None], other=0).to(tl.uint32, bitcast=True)
    s0 = tl.load(seed + nonce * 16, mask=live, other=0).to(tl.uint32, bitcast=True)
    pages = n_pages.to(tl.uint32)
    for i in range(ACCESSES):
        word = tl.sum(tl.where(w[None, :] == i % 32, mix, 0), axis=1)
        page = (((s0 ^ i) * FNV_PRIME) ^ word) % pages
        item = tl.load(dag + page.to(tl.int32)[:, None] * 32 + w[None, :], mask=live[:, None], other=0)
        mix = (mix * FNV_PRIME) ^ item.to(tl.uint32, bitcast=True)
    # compress 32 -> 8 words: fnv(fnv(fnv(m[4k], m[4k+1]), m[4k+2]), m[4k+3])
    quad = tl.reshape(mix, [BLOCK_N, 8, 4])
    q = tl.arange(0, 4)[None, None, :]
    c = tl.sum(tl.where(q == 0, quad, 0), axis=2)
    c = (c * FNV_PRIME) ^ tl.sum(tl.where(q == 1, quad, 0), axis=2)
    c = (c * FNV_PRIME) ^ tl.sum(tl.where(q == 2, quad, 0), axis=2)
    c = (c * FNV_PRIME) ^ tl.sum(tl.where(q == 3, quad, 0), axis=2)
    tl.store(cmix + nonce[:, None] * 8 + tl.arange(0, 8)[None, :], c.to(tl.int32, bitcast=True), mask=live[:, None])


def run(seed: torch.Tensor, dag: torch.Tensor) -> torch.Tensor:
    n = seed.shape[0]
    cmix = torch.empty(n, 8, device=seed.device, dtype=torch.int32)
    _hashimoto_mix[(triton.cdiv(n, BLOCK_N),)](seed, dag, cmix, n, dag.shape[0], BLOCK_N=BLOCK_N, num_warps=1)
    return cmix
