"""TeaCache rel-L1 distance (HunyuanVideo) for the Ascend NPU: one program per sample streams the sample's
L * D values in UB-sized blocks, accumulating sum|cur - prev| and sum|prev| in fp32, and stores their ratio."""
import torch
import triton
import triton.language as tl

BLOCK = 4096    # 2 bf16 loads + their fp32 upcasts + 2 fp32 accumulators: 80 KB of the 192 KB unified buffer


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
def _rel_l1_kernel(cur_ptr, prev_ptr, out_ptr, n, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    sd, sp = _abs_sums(cur_ptr + b * n, prev_ptr + b * n, 0, n, BLOCK)
    tl.store(out_ptr + b, sd / sp)


def run(cur: torch.Tensor, prev: torch.Tensor) -> torch.Tensor:
    batch = cur.shape[0]
    n = cur.numel() // batch
    out = torch.empty(batch, dtype=torch.float32, device=cur.device)
    _rel_l1_kernel[(batch,)](cur, prev, out, n, BLOCK=BLOCK)
    return out
