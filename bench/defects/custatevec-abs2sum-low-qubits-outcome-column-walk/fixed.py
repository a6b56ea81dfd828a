"""Marginal probabilities of the m lowest qubits: column sums of |psi|^2 over a [2^(n-m), 2^m] view."""
import torch
import triton
import triton.language as tl


@triton.jit
def _partial_abs2sum(re_ptr, im_ptr, part_ptr, n_rows, rows_per_prog,
                     NOUT: tl.constexpr, BLOCK_R: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, NOUT)
    first = pid * rows_per_prog
    last = tl.minimum(first + rows_per_prog, n_rows)
    acc = tl.zeros([BLOCK_R, NOUT], dtype=tl.float32)
    for r0 in range(first, last, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        offs = rows[:, None] * NOUT + cols[None, :]
        keep = (rows < last)[:, None]
        a = tl.load(re_ptr + offs, mask=keep, other=0.0)
        b = tl.load(im_ptr + offs, mask=keep, other=0.0)
        acc += a * a + b * b
    tl.store(part_ptr + pid * NOUT + cols, tl.sum(acc, axis=0))


@triton.jit
def _sum_partials(part_ptr, out_ptr, n_parts, NOUT: tl.constexpr, BLOCK_P: tl.constexpr, BLOCK_K: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_K + tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_P, BLOCK_K], dtype=tl.float32)
    for p0 in range(0, n_parts, BLOCK_P):
        parts = p0 + tl.arange(0, BLOCK_P)
        acc += tl.load(part_ptr + parts[:, None] * NOUT + cols[None, :], mask=(parts < n_parts)[:, None], other=0.0)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0))


def run(re: torch.Tensor, im: torch.Tensor, m: int) -> torch.Tensor:
    NOUT = 1 << m
    n_rows = re.numel() // NOUT
    BLOCK_R = max(1, 4096 // NOUT)
    n_tiles = triton.cdiv(n_rows, BLOCK_R)
    n_parts = min(n_tiles, 1024)
    rows_per_prog = triton.cdiv(n_tiles, n_parts) * BLOCK_R
    n_parts = triton.cdiv(n_rows, rows_per_prog)
    partials = torch.empty((n_parts, NOUT), device=re.device, dtype=torch.float32)
    probs = torch.empty(NOUT, device=re.device, dtype=torch.float32)
    _partial_abs2sum[(n_parts,)](re, im, partials, n_rows, rows_per_prog, NOUT=NOUT, BLOCK_R=BLOCK_R, num_warps=4)
    BLOCK_K = min(NOUT, 32)
    _sum_partials[(NOUT // BLOCK_K,)](partials, probs, n_parts, NOUT=NOUT, BLOCK_P=32, BLOCK_K=BLOCK_K, num_warps=4)
    return probs
