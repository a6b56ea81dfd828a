"""ListMLE slate loss: suffix log-sum-exp of the label-ordered scores, one program per slate."""
import torch
import triton
import triton.language as tl


@triton.jit
def _gather_in_label_order(scores_row, order_row, n, BLOCK: tl.constexpr):
    pos = tl.arange(0, BLOCK)
    valid = pos < n
    cand = tl.load(order_row + pos, mask=valid, other=0)
    return tl.load(scores_row + cand, mask=valid, other=float("-inf")), valid


@triton.jit
def _listmle_fwd(scores, order, lengths, loss, stride_s, stride_o, BLOCK: tl.constexpr):
    slate = tl.program_id(0)
    n = tl.load(lengths + slate)
    s, valid = _gather_in_label_order(scores + slate * stride_s, order + slate * stride_o, n, BLOCK)
    top = tl.max(s, axis=0)
    e = tl.where(valid, tl.exp(s - top), 0.0)
    tail = tl.cumsum(e, axis=0, reverse=True)
    terms = tl.where(valid, tl.log(tl.where(valid, tail, 1.0)) + top - s, 0.0)
    tl.store(loss + slate, tl.sum(terms, axis=0))


def run(scores: torch.Tensor, order: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    Q, L = scores.shape
    loss = torch.empty(Q, device=scores.device, dtype=torch.float32)
    BLOCK = triton.next_power_of_2(L)
    launch = {"num_warps": 4 if BLOCK <= 2048 else 8}
    _listmle_fwd[(Q,)](scores, order, lengths, loss, scores.stride(0), order.stride(0), BLOCK=BLOCK, **launch)
    return loss
