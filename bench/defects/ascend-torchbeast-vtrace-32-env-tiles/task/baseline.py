"""IMPALA V-trace: vs and policy-gradient advantages, one backwards pass over the unroll per env tile."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40


@triton.jit
def _vtrace_kernel(log_rhos, discounts, rewards, values, bootstrap, vs, pg_adv, T, B,
                   RHO_BAR: tl.constexpr, C_BAR: tl.constexpr, PG_RHO_BAR: tl.constexpr,
                   BLOCK_B: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for tile in range(pid, tl.cdiv(B, BLOCK_B), nprog):
        cols = tile * BLOCK_B + tl.arange(0, BLOCK_B)
        inb = cols < B
        v_next = tl.load(bootstrap + cols, mask=inb, other=0.0)
        vs_next = v_next
        acc = tl.zeros([BLOCK_B], dtype=tl.float32)
        for i in range(0, T):
            offs = (T - 1 - i) * B + cols
            rho = tl.exp(tl.load(log_rhos + offs, mask=inb, other=0.0))
            disc = tl.load(discounts + offs, mask=inb, other=0.0)
            r = tl.load(rewards + offs, mask=inb, other=0.0)
            v = tl.load(values + offs, mask=inb, other=0.0)
            delta = tl.minimum(rho, RHO_BAR) * (r + disc * v_next - v)
            acc = delta + disc * tl.minimum(rho, C_BAR) * acc
            vs_t = v + acc
            pg = tl.minimum(rho, PG_RHO_BAR) * (r + disc * vs_next - v)
            tl.store(vs + offs, vs_t, mask=inb)
            tl.store(pg_adv + offs, pg, mask=inb)
            v_next = v
            vs_next = vs_t


def run(log_rhos, discounts, rewards, values, bootstrap):
    T, B = values.shape
    vs = torch.empty_like(values)
    pg_adv = torch.empty_like(values)
    block_b = min(1024, max(32, triton.next_power_of_2(triton.cdiv(B, VECTOR_CORES))))
    grid = (min(VECTOR_CORES, triton.cdiv(B, block_b)),)
    _vtrace_kernel[grid](log_rhos, discounts, rewards, values, bootstrap, vs, pg_adv, T, B,
                         RHO_BAR=1.0, C_BAR=1.0, PG_RHO_BAR=1.0, BLOCK_B=block_b)
    return vs, pg_adv
