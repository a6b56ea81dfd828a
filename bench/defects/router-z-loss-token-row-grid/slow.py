"""ST-MoE router z-loss in two stages: lse^2 of each token's router logits, then the mean.
One program per token (the softmax-style row kernel), one partial per program."""
import torch
import triton
import triton.language as tl


@triton.jit
def z_loss_rows_kernel(logits_ptr, partial_ptr, E, stride_t, BLOCK_E: tl.constexpr):
    t = tl.program_id(0)
    cols = tl.arange(0, BLOCK_E)
    mask = cols < E
    x = tl.load(logits_ptr + t * stride_t + cols, mask=mask, other=float("-inf"))
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    tl.store(partial_ptr + t, lse * lse)


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
    n_programs = T
    partial = torch.empty(n_programs, dtype=torch.float32, device=router_logits.device)
    out = torch.empty(1, dtype=torch.float32, device=router_logits.device)
    z_loss_rows_kernel[(n_programs,)](router_logits, partial, E, router_logits.stride(0), BLOCK_E=BLOCK_E)
    sum_partials_kernel[(1,)](partial, out, n_programs, coeff / T, BLOCK=1024)
    return out[0]


def run(router_logits: torch.Tensor, coeff: float) -> torch.Tensor:
    return router_z_loss(router_logits, coeff)
