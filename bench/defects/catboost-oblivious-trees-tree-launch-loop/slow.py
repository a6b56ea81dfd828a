"""CatBoost oblivious-tree ensemble: each tree's leaf values added to the running prediction."""
import torch
import triton
import triton.language as tl


@triton.jit
def _add_tree(bins, split_feature, split_border, leaf_values, pred, tree, n_rows, stride_f,
              DEPTH: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK + tl.arange(0, BLOCK)
    live = rows < n_rows
    leaf = tl.zeros([BLOCK], dtype=tl.int32)
    for d in tl.static_range(DEPTH):
        feature = tl.load(split_feature + tree * DEPTH + d)
        border = tl.load(split_border + tree * DEPTH + d)
        b = tl.load(bins + feature * stride_f + rows, mask=live, other=0)
        leaf |= (b.to(tl.int32) > border).to(tl.int32) << d
    value = tl.load(leaf_values + tree * (1 << DEPTH) + leaf)
    total = tl.load(pred + rows, mask=live, other=0.0)
    tl.store(pred + rows, total + value, mask=live)


def run(bins: torch.Tensor, split_feature: torch.Tensor, split_border: torch.Tensor,
        leaf_values: torch.Tensor) -> torch.Tensor:
    n_rows = bins.shape[1]
    n_trees, depth = split_feature.shape
    pred = torch.zeros(n_rows, device=bins.device, dtype=torch.float32)
    BLOCK = 1024
    grid = (triton.cdiv(n_rows, BLOCK),)
    for tree in range(n_trees):
        _add_tree[grid](bins, split_feature, split_border, leaf_values, pred, tree, n_rows,
                        bins.stride(0), DEPTH=depth, BLOCK=BLOCK, num_warps=4)
    return pred
