"""ST-MoE router z-loss in two stages: lse^2 of each token's router logits, then the mean.
Each program takes a tile of 64 token rows, one partial per program."""
import torch
import triton
import triton.language as tl


@triton.jit
def z_loss_rows_kernel(logits_ptr, partial_ptr, T, E, stride_t, ROWS: tl.constexpr, BLOCK_E: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_E)
    rmask = rows < T
    mask = rmask[:, None] & (cols[None, :] < E)
    x = tl.load(logits_ptr + rows[:, None] * stride_t + cols[None, :], mask=mask, other=float("-inf"))
    m = tl.max(x, axis=1)
    m = tl.where(rmask, m, 0.0)
    lse = m + tl.log(tl.sum(tl.exp(x - m[:, None]), axis=1))
    z2 = tl.where(rmask, lse * lse, 0.0)
    tl.store(partial_ptr + pid, tl.sum(z2, axis=0))


@triton.jit
def sum_partials_kernel(partial_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(partial_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) * scale)


def router_z_loss(router_logits: torch.Tensor, coeff: float) -> torch.Tensor:
    T, E = router_logits.shape
    BLOCK_E = triton.next_power_of_2(E)
    ROWS = 64
    n_programs = triton.cdiv(T, ROWS)
    partial = torch.empty(n_programs, dtype=torch.float32, device=router_logits.device)
    out = torch.empty(1, dtype=torch.float32, device=router_logits.device)
    z_loss_rows_kernel[(n_programs,)](router_logits, partial, T, E, router_logits.stride(0),
                                      ROWS=ROWS, BLOCK_E=BLOCK_E)
    sum_partials_kernel[(1,)](partial, out, n_programs, coeff / T, BLOCK=1024)
    return out[0]


def run(router_logits: torch.Tensor, coeff: float) -> torch.Tensor:
    return router_z_loss(router_logits, coeff)
