"""One pull-direction PageRank iteration: dangling mass, then the damped in-edge sum per vertex."""
import torch
import triton
import triton.language as tl

ALPHA = tl.constexpr(0.85)


@triton.jit
def _dangling_mass(pr, out_deg, mass, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    p = tl.load(pr + offs, mask=m, other=0.0)
    d = tl.load(out_deg + offs, mask=m, other=1)
    tl.atomic_add(mass, tl.sum(tl.where(d == 0, p, 0.0), axis=0))


@triton.jit
def _pull_update(pr, out_deg, indptr, src, mass, new_pr, N, ROWS: tl.constexpr, LANES: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    rm = rows < N
    start = tl.load(indptr + rows, mask=rm, other=0)
    deg_in = tl.load(indptr + rows + 1, mask=rm, other=0) - start
    lanes = tl.arange(0, LANES)
    acc = tl.zeros([ROWS, LANES], dtype=tl.float32)
    for k in range(0, tl.max(deg_in, axis=0), LANES):
        em = (k + lanes)[None, :] < deg_in[:, None]
        u = tl.load(src + start[:, None] + k + lanes[None, :], mask=em, other=0)
        p = tl.load(pr + u, mask=em, other=0.0)
        d = tl.load(out_deg + u, mask=em, other=1)
        acc += p / d.to(tl.float32)
    dangling = tl.load(mass)
    out = (1.0 - ALPHA) / N + ALPHA * (tl.sum(acc, axis=1) + dangling / N)
    tl.store(new_pr + rows, out, mask=rm)


def run(pr: torch.Tensor, out_deg: torch.Tensor, indptr: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    N = pr.numel()
    mass = torch.zeros(1, device=pr.device, dtype=torch.float32)
    new_pr = torch.empty_like(pr)
    _dangling_mass[(triton.cdiv(N, 1024),)](pr, out_deg, mass, N, BLOCK=1024)
    _pull_update[(triton.cdiv(N, 32),)](pr, out_deg, indptr, src, mass, new_pr, N, ROWS=32, LANES=32, num_warps=4)
    return new_pr
