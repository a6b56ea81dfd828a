"""nbodykit density contrast of a painted mesh: delta = rho / mean(rho) - 1 (sum, then normalise)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 4096


@triton.jit
def _mesh_partial_sums(rho, partials, n_cells, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for blk in range(pid, tl.cdiv(n_cells, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        acc += tl.load(rho + offs, mask=offs < n_cells, other=0.0)
    tl.store(partials + pid, tl.sum(acc, axis=0))


@triton.jit
def _density_contrast(rho, partials, delta, n_cells, n_f,
                      N_PART: tl.constexpr, PART_P2: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    k = tl.arange(0, PART_P2)
    total = tl.sum(tl.load(partials + k, mask=k < N_PART, other=0.0), axis=0)
    inv_mean = n_f / total
    for blk in range(pid, tl.cdiv(n_cells, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < n_cells
        x = tl.load(rho + offs, mask=m, other=0.0)
        tl.store(delta + offs, x * inv_mean - 1.0, mask=m)


def run(rho: torch.Tensor) -> torch.Tensor:
    n_cells = rho.numel()
    delta = torch.empty_like(rho)
    blocks = triton.cdiv(n_cells, BLOCK)
    n_part = min(_VECTOR_CORES, blocks)
    partials = torch.empty(n_part, device=rho.device, dtype=torch.float32)
    _mesh_partial_sums[(n_part,)](rho, partials, n_cells, BLOCK=BLOCK)
    grid = (min(_VECTOR_CORES, blocks),)
    _density_contrast[grid](rho, partials, delta, n_cells, float(n_cells),
                            N_PART=n_part, PART_P2=triton.next_power_of_2(n_part), BLOCK=BLOCK)
    return delta
