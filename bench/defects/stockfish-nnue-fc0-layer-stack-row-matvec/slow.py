"""fc_0 of Stockfish's NNUE layer stacks: out[b] = bias[s] + W[s] @ x[b], s = the position's stack."""
import torch
import triton
import triton.language as tl

STACKS = 8
OUTPUTS = 16


@triton.jit
def _fc0(x, stack, w, bias, out, B, L1,
         OUTPUTS: tl.constexpr, BLOCK_K: tl.constexpr):
    pos = tl.program_id(0)
    s = tl.load(stack + pos)
    j = tl.arange(0, OUTPUTS)
    acc = tl.load(bias + s * OUTPUTS + j)
    for k0 in range(0, L1, BLOCK_K):
        ks = k0 + tl.arange(0, BLOCK_K)
        k_ok = ks < L1
        xv = tl.load(x + pos * L1 + ks, mask=k_ok, other=0).to(tl.int32)
        wt = tl.load(w + (s * OUTPUTS + j)[:, None] * L1 + ks[None, :], mask=k_ok[None, :], other=0)
        acc += tl.sum(wt.to(tl.int32) * xv[None, :], axis=1)
    tl.store(out + pos * OUTPUTS + j, acc)


def run(x, stack, w, bias):
    B, L1 = x.shape
    out = torch.empty(B, OUTPUTS, device=x.device, dtype=torch.int32)
    _fc0[(B,)](x, stack, w, bias, out, B, L1,
               OUTPUTS=OUTPUTS, BLOCK_K=min(512, triton.next_power_of_2(L1)), num_warps=4)
    return out
