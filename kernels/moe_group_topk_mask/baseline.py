"""Baseline Triton DeepSeek-V3 group-limited routing mask: one program per token."""
import torch
import triton
import triton.language as tl


@triton.jit
def group_topk_mask_kernel(scores_ptr, out_ptr, E, G, EG, stride_row,
                           TOPK_GROUP: tl.constexpr, BLOCK_G: tl.constexpr,
                           BLOCK_EG: tl.constexpr):
    tok = tl.program_id(0)
    groups = tl.arange(0, BLOCK_G)
    members = tl.arange(0, BLOCK_EG)
    valid = (groups[:, None] < G) & (members[None, :] < EG)
    offs = tok * stride_row + groups[:, None] * EG + members[None, :]
    x = tl.load(scores_ptr + offs, mask=valid, other=-float("inf"))
    # Sum of the two best experts per group: take the max, drop it, take the max again.
    best = tl.max(x, axis=1)
    best_at = tl.argmax(x, axis=1)
    second = tl.max(tl.where(members[None, :] == best_at[:, None], -float("inf"), x), axis=1)
    group_score = tl.where(groups < G, best + second, -float("inf"))
    keep = groups < 0
    for _ in range(TOPK_GROUP):
        winner = tl.argmax(group_score, axis=0)
        keep = keep | (groups == winner)
        group_score = tl.where(groups == winner, -float("inf"), group_score)
    tl.store(out_ptr + offs, tl.where(keep[:, None], x, 0.0), mask=valid)


def run(scores: torch.Tensor, n_group: int, topk_group: int) -> torch.Tensor:
    T, E = scores.shape
    out = torch.empty_like(scores)
    group_topk_mask_kernel[(T,)](scores, out, E, n_group, E // n_group, scores.stride(0),
                                 TOPK_GROUP=topk_group, BLOCK_G=triton.next_power_of_2(n_group),
                                 BLOCK_EG=triton.next_power_of_2(E // n_group))
    return out
