"""ListMLE slate loss: suffix log-sum-exp of the label-ordered scores, one program per slate."""
import torch
import triton
import triton.language as tl


@triton.jit
def _log_add_exp(run_max, run_sum, x):
    new_max = tl.maximum(run_max, x)
    return new_max, run_sum * tl.exp(run_max - new_max) + tl.exp(x - new_max)


@triton.jit
def _listmle_fwd(scores, order, lengths, loss, stride_s, stride_o):
    slate = tl.program_id(0)
    n = tl.load(lengths + slate)
    scores_row = scores + slate * stride_s
    order_row = order + slate * stride_o
    run_max = -float("inf")
    run_sum = 0.0
    total = 0.0
    for k in range(0, n):
        pos = n - 1 - k
        s = tl.load(scores_row + tl.load(order_row + pos))
        run_max, run_sum = _log_add_exp(run_max, run_sum, s)
        total += tl.log(run_sum) + run_max - s
    tl.store(loss + slate, total)


def run(scores: torch.Tensor, order: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    Q, L = scores.shape
    loss = torch.empty(Q, device=scores.device, dtype=torch.float32)
    BLOCK = triton.next_power_of_2(L)
    launch = {"num_warps": 4 if BLOCK <= 2048 else 8}
    _listmle_fwd[(Q,)](scores, order, lengths, loss, scores.stride(0), order.stride(0), **launch)
    return loss
