"""Marginal probabilities of the m lowest qubits: one program per measurement outcome."""
import torch
import triton
import triton.language as tl


@triton.jit
def _outcome_abs2sum(re_ptr, im_ptr, out_ptr, n_rows, NOUT: tl.constexpr, BLOCK: tl.constexpr):
    outcome = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for r0 in range(0, n_rows, BLOCK):
        rows = r0 + tl.arange(0, BLOCK)
        keep = rows < n_rows
        idx = rows * NOUT + outcome
        a = tl.load(re_ptr + idx, mask=keep, other=0.0)
        b = tl.load(im_ptr + idx, mask=keep, other=0.0)
        acc += a * a + b * b
    tl.store(out_ptr + outcome, tl.sum(acc, axis=0))


def run(re: torch.Tensor, im: torch.Tensor, m: int) -> torch.Tensor:
    NOUT = 1 << m
    n_rows = re.numel() // NOUT
    probs = torch.empty(NOUT, device=re.device, dtype=torch.float32)
    BLOCK = min(1024, triton.next_power_of_2(n_rows))
    _outcome_abs2sum[(NOUT,)](re, im, probs, n_rows, NOUT=NOUT, BLOCK=BLOCK, num_warps=4)
    return probs
