"""Pooled-sum embedding bag (FBGEMM TBE forward, one table) for triton-ascend: bags strided over
the vector cores, each bag's rows gathered and summed on chip."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _bag_bounds(offsets_ptr, bag):
    start = tl.load(offsets_ptr + bag)
    end = tl.load(offsets_ptr + bag + 1)
    return start, end


@triton.jit
def embedding_bag_sum_kernel(weight_ptr, indices_ptr, offsets_ptr, out_ptr, n_bags,
                             D: tl.constexpr, NUM_CORES: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, D)
    for bag in range(pid, n_bags, NUM_CORES):
        start, end = _bag_bounds(offsets_ptr, bag)
        acc = tl.zeros([D], dtype=tl.float32)
        for i in range(start, end):
            idx = tl.load(indices_ptr + i)
            acc += tl.load(weight_ptr + idx * D + cols)
        tl.store(out_ptr + bag * D + cols, acc)


def run(weight: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    D = weight.shape[1]
    n_bags = offsets.numel() - 1
    out = torch.empty((n_bags, D), dtype=torch.float32, device=weight.device)
    cores = min(NUM_VECTOR_CORES, n_bags)
    embedding_bag_sum_kernel[(cores,)](weight, indices, offsets, out, n_bags, D=D, NUM_CORES=cores)
    return out
