"""Ethash hashimoto: 64 dependent 128-byte DAG page reads per nonce mixed into a 32-word state with FNV,
then the 4-to-1 FNV compression of the mix (ethminer's search kernel, memory-hard stage)."""
import torch
import triton
import triton.language as tl

FNV_PRIME = tl.constexpr(0x01000193)
ACCESSES = tl.constexpr(64)


@triton.jit
def _hashimoto_mix(seed, dag, cmix, n_pages):
    nonce = tl.program_id(0)
    w = tl.arange(0, 32)
    # the 128-byte mix starts as the 64-byte seed twice
    mix = tl.load(seed + nonce * 16 + (w % 16)).to(tl.uint32, bitcast=True)
    s0 = tl.load(seed + nonce * 16).to(tl.uint32, bitcast=True)
    pages = n_pages.to(tl.uint32)
    for i in range(ACCESSES):
        word = tl.sum(tl.where(w == i % 32, mix, 0), axis=0)
        page = (((s0 ^ i) * FNV_PRIME) ^ word) % pages
        item = tl.load(dag + page.to(tl.int32) * 32 + w).to(tl.uint32, bitcast=True)
        mix = (mix * FNV_PRIME) ^ item
    # compress 32 -> 8 words: fnv(fnv(fnv(m[4k], m[4k+1]), m[4k+2]), m[4k+3])
    quad = tl.reshape(mix, [8, 4])
    q = tl.arange(0, 4)[None, :]
    c = tl.sum(tl.where(q == 0, quad, 0), axis=1)
    c = (c * FNV_PRIME) ^ tl.sum(tl.where(q == 1, quad, 0), axis=1)
    c = (c * FNV_PRIME) ^ tl.sum(tl.where(q == 2, quad, 0), axis=1)
    c = (c * FNV_PRIME) ^ tl.sum(tl.where(q == 3, quad, 0), axis=1)
    tl.store(cmix + nonce * 8 + tl.arange(0, 8), c.to(tl.int32, bitcast=True))


def run(seed: torch.Tensor, dag: torch.Tensor) -> torch.Tensor:
    n = seed.shape[0]
    cmix = torch.empty(n, 8, device=seed.device, dtype=torch.int32)
    _hashimoto_mix[(n,)](seed, dag, cmix, dag.shape[0], num_warps=1)
    return cmix
