# backend: cuda
# absent: common-redundant-across-programs
import torch
import triton
import triton.language as tl


@triton.jit
def attend(q_ptr, k_ptr, o_ptr, L, D: tl.constexpr, BLOCK: tl.constexpr):
    qb, head = tl.program_id(0), tl.program_id(1)
    rows = qb * BLOCK + tl.arange(0, BLOCK)
    dims = tl.arange(0, D)
    q = tl.load(q_ptr + head * L * D + rows[:, None] * D + dims[None, :])
    acc = tl.zeros((BLOCK, D), dtype=tl.float32)
    for start in range(0, L, BLOCK):  # each query block's own work: its q tile is in the loop
        keys = start + tl.arange(0, BLOCK)
        k = tl.load(k_ptr + head * L * D + keys[:, None] * D + dims[None, :])
        acc += tl.dot(tl.dot(q, tl.trans(k)).to(tl.float16), k)
    tl.store(o_ptr + head * L * D + rows[:, None] * D + dims[None, :], acc.to(tl.float16))


def run(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    H, L, D = q.shape
    o = torch.empty_like(q)
    attend[(L // 64, H)](q, k, o, L, D=D, BLOCK=64)
    return o
