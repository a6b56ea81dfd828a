"""TeaCache rel-L1 distance (HunyuanVideo) for the Ascend NPU. Each sample's L * D values are split into P
contiguous spans, one per vector core: the first kernel reduces a span to sum|cur - prev| and sum|prev| in
fp32, the second adds a sample's P partial pairs and takes the ratio."""
import torch
import triton
import triton.language as tl
from triton.runtime import driver

BLOCK = 4096    # 2 bf16 loads + their fp32 upcasts + 2 fp32 accumulators: 80 KB of the 192 KB unified buffer


def _vector_core_count(device: torch.device) -> int:
    if device.type == "npu":
        return driver.active.utils.get_device_properties(device.index or 0)["num_vectorcore"]
    return 40


@triton.jit
def _abs_sums(cur_ptr, prev_ptr, start, stop, BLOCK: tl.constexpr):
    lanes = tl.arange(0, BLOCK)
    acc_d = tl.zeros([BLOCK], dtype=tl.float32)
    acc_p = tl.zeros([BLOCK], dtype=tl.float32)
    for s in range(start, stop, BLOCK):
        offs = s + lanes
        mask = offs < stop
        c = tl.load(cur_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        p = tl.load(prev_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        acc_d += tl.abs(c - p)
        acc_p += tl.abs(p)
    return tl.sum(acc_d, axis=0), tl.sum(acc_p, axis=0)


@triton.jit
def _rel_l1_partial_kernel(cur_ptr, prev_ptr, part_ptr, n, span, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    p = tl.program_id(1)
    nparts = tl.num_programs(1)
    start = p * span
    stop = tl.minimum(start + span, n)
    sd, sp = _abs_sums(cur_ptr + b * n, prev_ptr + b * n, start, stop, BLOCK)
    slot = part_ptr + (b * nparts + p) * 2
    tl.store(slot, sd)
    tl.store(slot + 1, sp)


@triton.jit
def _rel_l1_finish_kernel(part_ptr, out_ptr, nparts, BLOCK_P: tl.constexpr):
    b = tl.program_id(0)
    j = tl.arange(0, BLOCK_P)
    m = j < nparts
    base = part_ptr + b * nparts * 2
    sd = tl.sum(tl.load(base + 2 * j, mask=m, other=0.0), axis=0)
    sp = tl.sum(tl.load(base + 2 * j + 1, mask=m, other=0.0), axis=0)
    tl.store(out_ptr + b, sd / sp)


def run(cur: torch.Tensor, prev: torch.Tensor) -> torch.Tensor:
    batch = cur.shape[0]
    n = cur.numel() // batch
    nparts = max(1, min(_vector_core_count(cur.device) // batch, triton.cdiv(n, BLOCK)))
    span = triton.cdiv(triton.cdiv(n, nparts), BLOCK) * BLOCK
    partials = torch.empty((batch, nparts, 2), dtype=torch.float32, device=cur.device)
    out = torch.empty(batch, dtype=torch.float32, device=cur.device)
    _rel_l1_partial_kernel[(batch, nparts)](cur, prev, partials, n, span, BLOCK=BLOCK)
    _rel_l1_finish_kernel[(batch,)](partials, out, nparts, BLOCK_P=triton.next_power_of_2(nparts))
    return out
