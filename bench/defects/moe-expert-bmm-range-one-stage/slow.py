"""MoE expert batched GEMM over a 3-D grid (C tile, I tile, expert); the K loop is a tl.range with num_stages=1."""
import torch
import triton
import triton.language as tl


@triton.jit
def expert_bmm_kernel(x_ptr, w_ptr, y_ptr, C, H, N_FF, sx, sw, sy,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, STAGES: tl.constexpr):
    e = tl.program_id(2)
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    x_base = x_ptr + e.to(tl.int64) * sx
    w_base = w_ptr + e.to(tl.int64) * sw
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, H, BLOCK_K, num_stages=STAGES):
        a = tl.load(x_base + rm[:, None] * H + (k + rk)[None, :],
                    mask=(rm[:, None] < C) & ((k + rk)[None, :] < H), other=0.0)
        b = tl.load(w_base + (k + rk)[:, None] * N_FF + rn[None, :],
                    mask=((k + rk)[:, None] < H) & (rn[None, :] < N_FF), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(y_ptr + e.to(tl.int64) * sy + rm[:, None] * N_FF + rn[None, :], acc.to(y_ptr.dtype.element_ty),
             mask=(rm[:, None] < C) & (rn[None, :] < N_FF))


# tile configuration of the expert layer, kept next to the launcher
EXPERT_TILES = dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, STAGES=1, num_warps=4)


def run(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    E, C, H = x.shape
    N_FF = w.shape[2]
    y = torch.empty((E, C, N_FF), device=x.device, dtype=x.dtype)
    grid = (triton.cdiv(C, EXPERT_TILES["BLOCK_M"]), triton.cdiv(N_FF, EXPERT_TILES["BLOCK_N"]), E)
    expert_bmm_kernel[grid](x, w, y, C, H, N_FF, x.stride(0), w.stride(0), y.stride(0), **EXPERT_TILES)
    return y
