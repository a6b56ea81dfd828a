"""FSDP2 all-gather copy-out: rank-major [W, S] all-gather output -> unsharded parameters, one flat buffer."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40
CHUNK = 2048


@triton.jit
def _all_gather_copy_out(gathered, split_sizes, out, num_params, shard_numel,
                         WORLD: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rank = tl.arange(0, WORLD)[:, None]
    lane = tl.arange(0, BLOCK)[None, :]
    offset = 0
    for p in range(num_params):
        size = tl.load(split_sizes + p)
        src = gathered + rank * shard_numel + offset
        dst = out + offset * WORLD + rank * size
        for start in range(pid * BLOCK, size, nprog * BLOCK):
            col = start + lane
            mask = col < size
            vals = tl.load(src + col, mask=mask)
            tl.store(dst + col, vals, mask=mask)
        offset += size


def run(all_gather_output: torch.Tensor, split_sizes: torch.Tensor) -> torch.Tensor:
    world, shard_numel = all_gather_output.shape
    out = torch.empty(world * shard_numel, dtype=all_gather_output.dtype, device=all_gather_output.device)
    grid = (min(NUM_VECTOR_CORES, triton.cdiv(shard_numel, CHUNK)),)
    _all_gather_copy_out[grid](all_gather_output, split_sizes, out, split_sizes.numel(), shard_numel,
                               WORLD=world, BLOCK=CHUNK)
    return out
