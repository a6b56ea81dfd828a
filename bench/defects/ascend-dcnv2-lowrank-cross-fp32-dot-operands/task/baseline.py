"""torchrec LowRankCrossNet layer for the Ascend NPU: h = x_l V^T on the cube, then x0 * (h W^T + b) + x_l with
the cross epilogue fused into the second GEMM. Both kernels are persistent: one program per AI (cube) core, looping
over [BLOCK_M, BLOCK_N] output tiles."""
import torch
import triton
import triton.language as tl
from triton.runtime import driver

COMPUTE_DTYPE = tl.float32


def _cube_core_count(device: torch.device) -> int:
    if device.type == "npu":
        return driver.active.utils.get_device_properties(device.index or 0)["num_aicore"]
    return 20


def _tiles(m: int, n: int, k: int) -> dict:
    return {
        "BLOCK_M": min(128, max(16, triton.next_power_of_2(m))),
        "BLOCK_N": min(128, max(16, triton.next_power_of_2(n))),
        "BLOCK_K": min(256, max(16, triton.next_power_of_2(k))),
    }


@triton.jit
def _mma_step(acc, a_ptr, w_ptr, offs_m, offs_n, k0, M, N, K, BLOCK_K: tl.constexpr):
    offs_k = k0 + tl.arange(0, BLOCK_K)
    km = offs_k < K
    a = tl.load(a_ptr + offs_m[:, None] * K + offs_k[None, :], mask=(offs_m < M)[:, None] & km[None, :], other=0.0)
    w = tl.load(w_ptr + offs_n[:, None] * K + offs_k[None, :], mask=(offs_n < N)[:, None] & km[None, :], other=0.0)
    return tl.dot(a, tl.trans(w), acc)


@triton.jit
def _cross_down_kernel(x_ptr, v_ptr, h_ptr, M, N, K, n_tiles_n, n_tiles,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for tile in range(pid, n_tiles, nprog):
        offs_m = (tile // n_tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = (tile % n_tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            acc = _mma_step(acc, x_ptr, v_ptr, offs_m, offs_n, k0, M, N, K, BLOCK_K)
        mask = (offs_m < M)[:, None] & (offs_n < N)[None, :]
        tl.store(h_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(h_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _cross_up_kernel(h_ptr, w_ptr, b_ptr, x0_ptr, xl_ptr, out_ptr, M, N, K, n_tiles_n, n_tiles,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                     COMPUTE: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for tile in range(pid, n_tiles, nprog):
        offs_m = (tile // n_tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = (tile % n_tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            acc = _mma_step(acc, h_ptr, w_ptr, offs_m, offs_n, k0, M, N, K, BLOCK_K)
        nm = offs_n < N
        mask = (offs_m < M)[:, None] & nm[None, :]
        offs = offs_m[:, None] * N + offs_n[None, :]
        bias = tl.load(b_ptr + offs_n, mask=nm, other=0.0).to(COMPUTE)
        x0 = tl.load(x0_ptr + offs, mask=mask, other=0.0).to(COMPUTE)
        xl = tl.load(xl_ptr + offs, mask=mask, other=0.0).to(COMPUTE)
        y = x0 * (acc + bias[None, :]) + xl
        tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


def run(x0: torch.Tensor, xl: torch.Tensor, v: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    B, N = xl.shape
    R = v.shape[0]
    cores = _cube_core_count(xl.device)
    h = torch.empty((B, R), device=xl.device, dtype=xl.dtype)
    out = torch.empty_like(xl)

    down = _tiles(B, R, N)
    down_n = triton.cdiv(R, down["BLOCK_N"])
    down_tiles = triton.cdiv(B, down["BLOCK_M"]) * down_n
    _cross_down_kernel[(min(down_tiles, cores),)](xl, v, h, B, R, N, down_n, down_tiles, **down)

    up = _tiles(B, N, R)
    up_n = triton.cdiv(N, up["BLOCK_N"])
    up_tiles = triton.cdiv(B, up["BLOCK_M"]) * up_n
    _cross_up_kernel[(min(up_tiles, cores),)](h, w, b, x0, xl, out, B, N, R, up_n, up_tiles,
                                              COMPUTE=COMPUTE_DTYPE, **up)
    return out
