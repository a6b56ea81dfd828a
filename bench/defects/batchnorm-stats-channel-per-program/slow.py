"""BatchNorm stats: one program per channel walks down its column, BLOCK_M rows at a time."""
import torch
import triton
import triton.language as tl


@triton.jit
def channel_stats_kernel(x_ptr, mean_ptr, var_ptr, M, C, BLOCK_M: tl.constexpr):
    c = tl.program_id(0)
    rm = tl.arange(0, BLOCK_M)
    s = tl.zeros((BLOCK_M,), dtype=tl.float32)
    q = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for r in range(0, M, BLOCK_M):
        rows = r + rm
        x = tl.load(x_ptr + rows.to(tl.int64) * C + c, mask=rows < M, other=0.0).to(tl.float32)
        s += x
        q += x * x
    mean = tl.sum(s, axis=0) / M
    tl.store(mean_ptr + c, mean)
    tl.store(var_ptr + c, tl.sum(q, axis=0) / M - mean * mean)


def run(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    M, C = x.shape
    mean = torch.empty(C, dtype=torch.float32, device=x.device)
    var = torch.empty(C, dtype=torch.float32, device=x.device)
    channel_stats_kernel[(C,)](x, mean, var, M, C, BLOCK_M=1024)
    return mean, var
