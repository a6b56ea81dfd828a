"""Block-sparse SDDMM of BigBird attention: the scaled scores S = (Q @ K^T) * scale computed only at the
64 x 64 blocks of a BigBird layout (2 global blocks, a 3-block sliding window, 3 random blocks per
block row; one layout for all heads), stored compressed as out [B, H, nnz, 64, 64] in the order of the
layout's nonzero list. The layout comes as a dense block map (slot of each block in the list, -1 where
absent) and as the [nnz, 2] list of (row block, column block), both built once at model init."""
import torch

META = {
    "name": "bigbird_block_sparse_sddmm",
    "level": 2,
    "category": "matmul",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "H": 2, "S": 768, "D": 64},
        "ragged": {"B": 2, "H": 3, "S": 640, "D": 64},
        "large": {"B": 4, "H": 12, "S": 4096, "D": 64},
    },
    "baseline_notes": "Grid (nonzero block, batch * head): each program reads its (row, col) block pair from "
                      "the list, loads a 64 x 64 Q tile and a 64 x 64 K tile, one tl.dot, scales and stores "
                      "the bf16 block; 4 warps.",
    "deterministic": True,
}

BLOCK = 64


def _layout(nb: int, seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(1000 + seed)
    lay = torch.zeros(nb, nb, dtype=torch.bool)
    glob = [0, nb - 1]
    lay[glob, :] = True
    lay[:, glob] = True
    for i in range(nb):
        lay[i, max(0, i - 1): i + 2] = True
        free = (~lay[i]).nonzero().flatten()
        if free.numel():
            lay[i, free[torch.randperm(free.numel(), generator=g)[:3]]] = True
    return lay


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k [B, H, S, D]; block_map [nb, nb] int32; block_list [nnz, 2] int32; scale."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (s["B"], s["H"], s["S"], s["D"])
    q = torch.randn(shape, generator=g)
    k = torch.randn(shape, generator=g)
    lay = _layout(s["S"] // BLOCK, seed)
    block_list = lay.nonzero().to(torch.int32).contiguous()
    block_map = torch.full(lay.shape, -1, dtype=torch.int32)
    block_map[lay] = torch.arange(block_list.shape[0], dtype=torch.int32)
    return (q.to(dt).to(device), k.to(dt).to(device), block_map.to(device), block_list.to(device),
            s["D"] ** -0.5)


def reference(q, k, block_map, block_list, scale) -> torch.Tensor:
    b, h, s, _ = q.shape
    nb = s // BLOCK
    scores = torch.matmul(q.float(), k.float().transpose(-1, -2)) * scale
    tiles = scores.reshape(b, h, nb, BLOCK, nb, BLOCK).permute(0, 1, 2, 4, 3, 5)
    rows, cols = block_list[:, 0].long(), block_list[:, 1].long()
    return tiles[:, :, rows, cols].to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nnz = int(_layout(s["S"] // BLOCK, 0).sum())
    bh = s["B"] * s["H"]
    return {"bytes": 2 * 2 * bh * s["S"] * s["D"] + 2 * bh * nnz * BLOCK * BLOCK + 8 * nnz,
            "flops": 2 * bh * nnz * BLOCK * BLOCK * s["D"]}
