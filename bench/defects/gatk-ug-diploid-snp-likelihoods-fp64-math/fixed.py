"""Diploid SNP genotype likelihoods (log10) from pileup bases and Phred base qualities."""
import torch
import triton
import triton.language as tl

MIN_BASE_QUAL = tl.constexpr(13)
NEG_LN10_DIV_10 = tl.constexpr(-0.23025850929940458)
INV_LN10 = tl.constexpr(0.4342944819032518)


@triton.jit
def _diploid_gl(base, qual, depth, gl, S, stride_s,
                BLOCK_S: tl.constexpr, BLOCK_D: tl.constexpr):
    sites = tl.program_id(0) * BLOCK_S + tl.arange(0, BLOCK_S)
    site_ok = sites < S
    n = tl.load(depth + sites, mask=site_ok, other=0)
    reads = tl.arange(0, BLOCK_D)
    real = site_ok[:, None] & (reads[None, :] < n[:, None])
    offs = sites[:, None] * stride_s + reads[None, :]
    b = tl.load(base + offs, mask=real, other=4)
    q = tl.load(qual + offs, mask=real, other=0)
    use = (b < 4) & (q >= MIN_BASE_QUAL)
    err = tl.exp(q.to(tl.float32) * NEG_LN10_DIV_10)
    hit = 1.0 - err
    miss = err / 3.0
    for a2 in tl.static_range(4):
        p2 = tl.where(b == a2, hit, miss)
        for a1 in tl.static_range(a2 + 1):
            p1 = tl.where(b == a1, hit, miss)
            lik = tl.log(0.5 * (p1 + p2)) * INV_LN10
            total = tl.sum(tl.where(use, lik, 0.0), axis=1)
            tl.store(gl + sites * 10 + (a2 * (a2 + 1) // 2 + a1), total.to(tl.float32), mask=site_ok)


def run(base: torch.Tensor, qual: torch.Tensor, depth: torch.Tensor) -> torch.Tensor:
    S, D = base.shape
    gl = torch.empty((S, 10), device=base.device, dtype=torch.float32)
    BLOCK_S = 16
    BLOCK_D = triton.next_power_of_2(D)
    _diploid_gl[(triton.cdiv(S, BLOCK_S),)](base, qual, depth, gl, S, base.stride(0),
                                            BLOCK_S=BLOCK_S, BLOCK_D=BLOCK_D, num_warps=4)
    return gl
