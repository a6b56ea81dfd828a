"""Baseline MoE permute: one launch over all destination rows."""
import torch
import triton
import triton.language as tl


@triton.jit
def gather_rows_kernel(x_ptr, ids_ptr, out_ptr, row_start, H, topk, BLOCK_H: tl.constexpr):
    i = row_start + tl.program_id(0)
    token = tl.load(ids_ptr + i) // topk
    cols = tl.arange(0, BLOCK_H)
    m = cols < H
    row = tl.load(x_ptr + token * H + cols, mask=m)
    tl.store(out_ptr + i.to(tl.int64) * H + cols, row, mask=m)


class ExpertDispatcher:
    """Permutes token rows into expert-contiguous order before the expert MLPs."""

    def __init__(self, topk: int) -> None:
        self.topk = topk

    def __call__(self, x: torch.Tensor, sorted_ids: torch.Tensor, expert_offsets: torch.Tensor) -> torch.Tensor:
        T, H = x.shape
        rows = sorted_ids.numel()
        out = torch.empty((rows, H), dtype=x.dtype, device=x.device)
        gather_rows_kernel[(rows,)](x, sorted_ids, out, 0, H, self.topk, BLOCK_H=triton.next_power_of_2(H))
        return out


def run(x: torch.Tensor, sorted_ids: torch.Tensor, expert_offsets: torch.Tensor, topk: int) -> torch.Tensor:
    return ExpertDispatcher(topk)(x, sorted_ids, expert_offsets)
