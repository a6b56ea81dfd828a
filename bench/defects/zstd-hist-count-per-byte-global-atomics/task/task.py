"""Per-block byte histogram of a zstd compression job (HIST_count / HIST_countFast_wksp of lib/compress/hist.c).

Before entropy-coding a block, zstd counts how often every byte value occurs in it (the literal
statistics that HUF_buildCTable and the "is this block compressible" heuristics start from). A batched
GPU compressor cuts the input into blocks of `block_size` bytes (ZSTD_BLOCKSIZE_MAX = 128 KiB; the
last block may be shorter) and needs one 256-bin histogram per block:
    hist[b, v] = #{ i : b * block_size <= i < min((b + 1) * block_size, n), src[i] == v }
Returns hist int32 [ceil(n / block_size), 256].
"""
import torch

META = {
    "name": "zstd_block_byte_histogram",
    "level": 1,
    "category": "histogram",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 3 * 4096, "block": 4096},
        "ragged": {"N": 2 * 3000 + 1234, "block": 3000},
        "large": {"N": 1024 * 131072, "block": 131072},
    },
    "baseline_notes": "Grid (blocks, 4096-byte tiles of a block); each program loads its tile, bins it with "
                      "tl.histogram (256 bins, masked tail) and adds the 256 counts into the block's row with "
                      "one vector atomic; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """src uint8 [N]: text-like bytes, each block drawn from its own Zipf-shaped distribution over a
    shuffled alphabet of 48..256 symbols (the skew of literals in real data: the commonest byte of a
    block is 13-34 % of it); block_size (int)."""
    s = META["sizes"][size]
    n, block = s["N"], s["block"]
    g = torch.Generator().manual_seed(seed)
    n_blocks = (n + block - 1) // block
    alpha = 48 + torch.randint(0, 209, (n_blocks,), generator=g)
    expo = 0.8 + 0.6 * torch.rand(n_blocks, generator=g)
    rank = torch.arange(256, dtype=torch.float64)
    p = (rank[None, :] + 1.0).pow(-expo.double()[:, None])
    p = torch.where(rank[None, :] < alpha[:, None], p, torch.zeros_like(p))
    order = torch.argsort(torch.rand(n_blocks, 256, generator=g), dim=1)
    p = torch.zeros_like(p).scatter_(1, order, p)
    # Sample through a 65,536-entry table per block holding each byte value about p * 65536 times.
    q = torch.floor(p / p.sum(dim=1, keepdim=True) * 65536.0).long()
    q[torch.arange(n_blocks), q.argmax(dim=1)] += 65536 - q.sum(dim=1)
    sym = torch.arange(256, dtype=torch.uint8).repeat(n_blocks)
    table = torch.repeat_interleave(sym, q.reshape(-1)).reshape(n_blocks, 65536)
    pick = torch.randint(0, 65536, (n_blocks, block), generator=g)
    src = torch.gather(table, 1, pick).reshape(-1)[:n]
    return src.to(device), block


def reference(src: torch.Tensor, block_size: int) -> torch.Tensor:
    n = src.shape[0]
    n_blocks = (n + block_size - 1) // block_size
    blk = torch.arange(n, device=src.device) // block_size
    flat = torch.bincount(blk * 256 + src.long(), minlength=n_blocks * 256)
    return flat.reshape(n_blocks, 256).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_blocks = (s["N"] + s["block"] - 1) // s["block"]
    return {"bytes": s["N"] + 4 * 256 * n_blocks, "flops": s["N"]}
