# backend: cuda
# absent: cuda-strided-fast-axis
import torch
import triton
import triton.language as tl


@triton.jit
def count_spaces(chars, offsets, out, BLOCK: tl.constexpr):
    doc = tl.program_id(0)
    start = tl.load(offsets + doc)
    length = tl.load(offsets + doc + 1) - start
    n = tl.zeros([BLOCK], tl.int32)
    for k in range(0, length, BLOCK):  # the program's lanes walk one document together
        offs = k + tl.arange(0, BLOCK)
        b = tl.load(chars + start + offs, mask=offs < length, other=0)
        n += (b == 32).to(tl.int32)
    tl.store(out + doc, tl.sum(n, axis=0))


@triton.jit
def gather_rows(table, ids, out, D, ROWS: tl.constexpr, BLOCK_D: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    idx = tl.load(ids + r)
    for d0 in range(0, D, BLOCK_D):  # a gather whose rows are contiguous along d
        d = d0 + tl.arange(0, BLOCK_D)
        tl.store(out + r[:, None] * D + d[None, :], tl.load(table + idx[:, None] * D + d[None, :]))


def run(chars, offsets, table, ids):
    out = torch.empty(offsets.numel() - 1, dtype=torch.int32, device=chars.device)
    count_spaces[(out.numel(),)](chars, offsets, out, BLOCK=1024)
    rows = torch.empty((ids.numel(), table.shape[1]), device=table.device)
    gather_rows[(ids.numel() // 16,)](table, ids, rows, table.shape[1], ROWS=16, BLOCK_D=128)
    return out, rows
