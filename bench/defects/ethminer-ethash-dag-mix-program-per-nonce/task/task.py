"""Ethash hashimoto mixing loop over the DAG (ethminer's CUDA/OpenCL search kernel, the memory-hard stage).

For each nonce, seed = keccak512(header_hash || nonce) (16 words, computed before this stage) initialises a
128-byte mix (32 words, the seed twice). Then 64 dependent DAG accesses, each reading one 128-byte page:
    p   = fnv(i ^ seed[0], mix[i % 32]) % n_pages
    mix = fnv(mix, dag[p])                      (word-wise over the 32 words)
with fnv(a, b) = (a * 0x01000193) ^ b mod 2^32. The mix is compressed to 8 words,
    cmix[k] = fnv(fnv(fnv(mix[4k], mix[4k+1]), mix[4k+2]), mix[4k+3]),
which the final keccak256(seed || cmix) and target compare consume. Inputs: seed [N, 16] int32, dag [n_pages, 32]
int32 (random words stand in for the DAG items; n_pages = full_size / 128). Output: cmix [N, 8] int32.
Words are int32 tensors holding the uint32 bit pattern (torch has no uint32 arithmetic).
"""
import torch

META = {
    "name": "ethash_dag_mix",
    "level": 2,
    "category": "crypto",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 16, "n_pages": 1021},
        "ragged": {"N": 21, "n_pages": 509},
        # epoch-0 DAG: full_size 1,073,739,904 bytes = 8,388,593 pages of 128 bytes; 2^20 nonces per launch
        "large": {"N": 1 << 20, "n_pages": 8388593},
    },
    "baseline_notes": "1-D grid of 16-nonce programs (1 warp): the [16, 32] mix tile stays in registers; each of "
                      "the 64 rounds picks word i % 32 with a masked row sum, computes the 16 page indices and "
                      "loads the 16 pages as one [16, 32] gather of contiguous 128-byte rows (16-byte vector "
                      "loads), then the fnv update; the 4-to-1 fnv compression and one [16, 8] store at the end. "
                      "No autotune.",
    "deterministic": True,
}

M32 = 0xFFFFFFFF
FNV_PRIME = 0x01000193


def _fnv(a, b):
    return ((a * FNV_PRIME) ^ b) & M32


def to_i32(x: torch.Tensor) -> torch.Tensor:
    """uint32 values in an int64 tensor -> int32 tensor with the same bit pattern."""
    return torch.where(x >= 1 << 31, x - (1 << 32), x).to(torch.int32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """seed words [N, 16], dag [n_pages, 32] (uniform random words), both int32 bit patterns."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    seeds = torch.randint(-(1 << 31), 1 << 31, (s["N"], 16), generator=g, dtype=torch.int32)
    dag = torch.randint(-(1 << 31), 1 << 31, (s["n_pages"], 32), generator=g, dtype=torch.int32)
    return seeds.to(device), dag.to(device)


def reference(seed: torch.Tensor, dag: torch.Tensor) -> torch.Tensor:
    s = seed.long() & M32
    n_pages = dag.shape[0]
    mix = torch.cat([s, s], dim=1)
    s0 = s[:, 0]
    for i in range(64):
        p = _fnv(s0 ^ i, mix[:, i % 32]) % n_pages
        mix = _fnv(mix, dag[p].long() & M32)
    m = mix.view(-1, 8, 4)
    cmix = _fnv(_fnv(_fnv(m[..., 0], m[..., 1]), m[..., 2]), m[..., 3])
    return to_i32(cmix)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": s["N"] * (64 * 128 + 64 + 32), "flops": s["N"] * 64 * 32 * 2}
