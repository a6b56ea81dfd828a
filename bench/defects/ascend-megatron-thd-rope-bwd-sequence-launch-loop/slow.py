"""Megatron-core THD rotary embedding backward: dx from dy with per-sequence positions (cu_seqlens)."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _rope_bwd_token(dy, cos, sin, dx, t, p, N, HALF, BN: tl.constexpr, BH: tl.constexpr):
    heads = tl.arange(0, BN)[:, None]
    j = tl.arange(0, BH)
    m = (heads < N) & (j[None, :] < HALF)
    offs = t * N * 2 * HALF + heads * 2 * HALF + j[None, :]
    g1 = tl.load(dy + offs, mask=m, other=0.0).to(tl.float32)
    g2 = tl.load(dy + offs + HALF, mask=m, other=0.0).to(tl.float32)
    row = p * 2 * HALF + j
    c1 = tl.load(cos + row, mask=j < HALF, other=0.0)[None, :]
    c2 = tl.load(cos + row + HALF, mask=j < HALF, other=0.0)[None, :]
    s1 = tl.load(sin + row, mask=j < HALF, other=0.0)[None, :]
    s2 = tl.load(sin + row + HALF, mask=j < HALF, other=0.0)[None, :]
    tl.store(dx + offs, (g1 * c1 + g2 * s2).to(dx.dtype.element_ty), mask=m)
    tl.store(dx + offs + HALF, (g2 * c2 - g1 * s1).to(dx.dtype.element_ty), mask=m)


@triton.jit
def _rope_bwd_seq(dy, cos, sin, dx, start, seqlen, N, HALF, BN: tl.constexpr, BH: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for p in range(pid, seqlen, nprog):
        _rope_bwd_token(dy, cos, sin, dx, start + p, p, N, HALF, BN, BH)


def run(dy: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, cu_seqlens: torch.Tensor) -> torch.Tensor:
    T, N, D = dy.shape
    dx = torch.empty_like(dy)
    BN, BH = triton.next_power_of_2(N), triton.next_power_of_2(D // 2)
    bounds = cu_seqlens.tolist()
    for start, end in zip(bounds[:-1], bounds[1:]):
        seqlen = end - start
        grid = (min(seqlen, NUM_VECTOR_CORES),)
        _rope_bwd_seq[grid](dy, cos, sin, dx, start, seqlen, N, D // 2, BN=BN, BH=BH)
    return dx
