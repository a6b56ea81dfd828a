"""DeepSpeed 1-bit Adam worker compression: error feedback, L2 scale, new error, packed signs."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40
BLOCK = 2048


@triton.jit
def _compensated_sumsq(buffer_m, worker_error, sumsq, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lane = tl.arange(0, BLOCK)
    for start in range(pid * BLOCK, n, nprog * BLOCK):
        offs = start + lane
        mask = offs < n
        x = tl.load(buffer_m + offs, mask=mask, other=0.0) + tl.load(worker_error + offs, mask=mask, other=0.0)
        tl.atomic_add(sumsq, tl.sum(x * x, axis=0))


@triton.jit
def _compress(buffer_m, worker_error, sumsq, new_error, packed, scale_out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    scale = tl.sqrt(tl.load(sumsq) / n)
    if pid == 0:
        tl.store(scale_out, scale)
    row = tl.arange(0, BLOCK // 8)
    bit = tl.arange(0, 8)
    weight = tl.exp2(bit.to(tl.float32))[None, :]
    for start in range(pid * BLOCK, n, nprog * BLOCK):
        offs = start + row[:, None] * 8 + bit[None, :]
        mask = offs < n
        x = tl.load(buffer_m + offs, mask=mask, other=0.0) + tl.load(worker_error + offs, mask=mask, other=0.0)
        positive = x >= 0.0
        tl.store(new_error + offs, x - scale * tl.where(positive, 1.0, -1.0), mask=mask)
        byte = tl.sum(tl.where(positive, weight, 0.0), axis=1)
        out_row = start // 8 + row
        tl.store(packed + out_row, byte.to(tl.int32).to(tl.uint8), mask=out_row < n // 8)


def run(buffer_m: torch.Tensor, worker_error: torch.Tensor, world: int):
    n = buffer_m.numel()
    dev = buffer_m.device
    sumsq = torch.zeros(1, dtype=torch.float32, device=dev)
    new_error = torch.empty_like(buffer_m)
    packed = torch.empty(n // 8, dtype=torch.uint8, device=dev)
    scale = torch.empty(1, dtype=torch.float32, device=dev)
    grid = (min(NUM_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _compensated_sumsq[grid](buffer_m, worker_error, sumsq, n, BLOCK=BLOCK)
    _compress[grid](buffer_m, worker_error, sumsq, new_error, packed, scale, n, BLOCK=BLOCK)
    return new_error, packed.view(world, -1), scale
