"""MoE permute row-id map as triton-ascend kernels: per-expert token counts, then per expert a blockwise
cumsum over its routing-map row, offset by the rows of all earlier experts."""
import torch
import triton
import triton.language as tl


@triton.jit
def expert_counts_kernel(map_ptr, counts_ptr, E, T, BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for e in range(pid, E, nprog):
        acc = tl.zeros([BLOCK_T], dtype=tl.int32)
        for t0 in range(0, T, BLOCK_T):
            offs = t0 + tl.arange(0, BLOCK_T)
            acc += tl.load(map_ptr + e * T + offs, mask=offs < T, other=0).to(tl.int32)
        tl.store(counts_ptr + e, tl.sum(acc, axis=0))


@triton.jit
def _expert_start(counts_ptr, e, BLOCK_E: tl.constexpr):
    ex = tl.arange(0, BLOCK_E)
    c = tl.load(counts_ptr + ex, mask=ex < e, other=0)
    return tl.sum(c, axis=0)


@triton.jit
def row_id_map_kernel(map_ptr, counts_ptr, out_ptr, E, T, BLOCK_T: tl.constexpr, BLOCK_E: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for e in range(pid, E, nprog):
        row = map_ptr + e * T
        prefix = _expert_start(counts_ptr, e, BLOCK_E)
        for t0 in range(0, T, BLOCK_T):
            offs = t0 + tl.arange(0, BLOCK_T)
            m = tl.load(row + offs, mask=offs < T, other=0).to(tl.int32)
            dst = prefix + tl.cumsum(m, axis=0) - 1
            tl.store(out_ptr + e * T + offs, tl.where(m > 0, dst, -1), mask=offs < T)
            prefix += tl.sum(m, axis=0)


def run(routing_map: torch.Tensor) -> torch.Tensor:
    E, T = routing_map.shape
    counts = torch.empty(E, dtype=torch.int32, device=routing_map.device)
    out = torch.empty((E, T), dtype=torch.int32, device=routing_map.device)
    num_vector_cores = 40
    grid = (min(num_vector_cores, E),)
    block_t = min(2048, triton.next_power_of_2(T))
    block_e = triton.next_power_of_2(E)
    expert_counts_kernel[grid](routing_map, counts, E, T, BLOCK_T=block_t)
    row_id_map_kernel[grid](routing_map, counts, out, E, T, BLOCK_T=block_t, BLOCK_E=block_e)
    return out
