"""Prioritised-replay sum tree refresh (Ape-X replay; BFS/heap array as in flashbax's sum_tree).

The C leaf priorities are padded with zeros to Cp = next_power_of_2(C) leaves; the tree is a heap
array of 2 * Cp - 1 fp32 nodes (root at 0, children of node i at 2i + 1 and 2i + 2, leaves at
Cp - 1 .. 2 Cp - 2), every internal node the sum of its two children.
"""
import torch

META = {
    "name": "per_sum_tree_refresh",
    "level": 2,
    "category": "reinforcement-learning",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"C": 8192},
        "ragged": {"C": 10000},
        "large": {"C": 2097152},
    },
    "baseline_notes": "Two launches: 40 programs stride over 4,096-leaf subtrees, write the leaves and pair-sum "
                      "the subtree's 12 levels on chip (reshape (n, 2) + sum), storing each level's run; one "
                      "program then sums the remaining top levels from the subtree roots.",
    "deterministic": True,
}

ALPHA = 0.6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """priorities [C] = (|td_error| + eps) ** alpha."""
    C = META["sizes"][size]["C"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    td = torch.randn(C, generator=g)
    prio = (td.abs() + 1e-6) ** ALPHA
    return (prio.to(dt).to(device),)


def reference(priorities):
    C = priorities.numel()
    cp = 1 << max(1, (C - 1).bit_length())
    level = torch.zeros(cp, dtype=torch.float64, device=priorities.device)
    level[:C] = priorities.double()
    levels = [level]
    while level.numel() > 1:
        level = level.view(-1, 2).sum(1)
        levels.append(level)
    return torch.cat(levels[::-1]).to(priorities.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    C = META["sizes"][size]["C"]
    cp = 1 << max(1, (C - 1).bit_length())
    return {"bytes": 4 * (C + 2 * cp - 1), "flops": cp}
