"""CatBoost oblivious-tree ensemble: every tree for a block of rows in one program."""
import torch
import triton
import triton.language as tl


@triton.jit
def _oblivious_forest(bins, split_feature, split_border, leaf_values, pred, n_rows, n_trees, stride_f,
                      DEPTH: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK + tl.arange(0, BLOCK)
    live = rows < n_rows
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for t in range(0, n_trees):
        leaf = tl.zeros([BLOCK], dtype=tl.int32)
        for d in tl.static_range(DEPTH):
            feature = tl.load(split_feature + t * DEPTH + d)
            border = tl.load(split_border + t * DEPTH + d)
            b = tl.load(bins + feature * stride_f + rows, mask=live, other=0)
            leaf |= (b.to(tl.int32) > border).to(tl.int32) << d
        acc += tl.load(leaf_values + t * (1 << DEPTH) + leaf)
    tl.store(pred + rows, acc, mask=live)


def run(bins: torch.Tensor, split_feature: torch.Tensor, split_border: torch.Tensor,
        leaf_values: torch.Tensor) -> torch.Tensor:
    n_rows = bins.shape[1]
    n_trees, depth = split_feature.shape
    pred = torch.empty(n_rows, device=bins.device, dtype=torch.float32)
    BLOCK = 1024
    grid = (triton.cdiv(n_rows, BLOCK),)
    _oblivious_forest[grid](bins, split_feature, split_border, leaf_values, pred, n_rows, n_trees,
                            bins.stride(0), DEPTH=depth, BLOCK=BLOCK, num_warps=4)
    return pred
