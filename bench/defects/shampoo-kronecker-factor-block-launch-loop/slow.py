"""Blocked Shampoo factor EMA: L and R of every gradient block, G G^T and G^T G accumulated in fp32 tiles."""
import torch
import triton
import triton.language as tl


@triton.jit
def _gram_tile(a_ptr, stride_r, stride_k, rows_i, rows_j, dim,
               BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_K: tl.constexpr):
    acc = tl.zeros((BLOCK_I, BLOCK_J), dtype=tl.float32)
    rk = tl.arange(0, BLOCK_K)
    for k0 in range(0, dim, BLOCK_K):
        kk = k0 + rk
        a = tl.load(a_ptr + rows_i[:, None] * stride_r + kk[None, :] * stride_k,
                    mask=(rows_i[:, None] < dim) & (kk[None, :] < dim), other=0.0)
        b = tl.load(a_ptr + kk[:, None] * stride_k + rows_j[None, :] * stride_r,
                    mask=(kk[:, None] < dim) & (rows_j[None, :] < dim), other=0.0)
        acc = tl.dot(a, b, acc)
    return acc


@triton.jit
def _ema_tile_store(f_ptr, out_ptr, acc, rows_i, rows_j, dim, beta2):
    offs = rows_i[:, None] * dim + rows_j[None, :]
    mask = (rows_i[:, None] < dim) & (rows_j[None, :] < dim)
    f = tl.load(f_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, beta2 * f + (1.0 - beta2) * acc, mask=mask)


@triton.jit
def _factor_ema_kernel(a_ptr, f_ptr, out_ptr, stride_r, stride_k, dim, beta2,
                       BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    tiles_j = tl.cdiv(dim, BLOCK_J)
    pid_i = pid // tiles_j
    pid_j = pid % tiles_j
    rows_i = pid_i * BLOCK_I + tl.arange(0, BLOCK_I)
    rows_j = pid_j * BLOCK_J + tl.arange(0, BLOCK_J)
    acc = _gram_tile(a_ptr, stride_r, stride_k, rows_i, rows_j, dim, BLOCK_I, BLOCK_J, BLOCK_K)
    _ema_tile_store(f_ptr, out_ptr, acc, rows_i, rows_j, dim, beta2)


TILE = {"BLOCK_I": 128, "BLOCK_J": 128, "BLOCK_K": 64}
LAUNCH = {"num_warps": 8, "num_stages": 3}


def _update_factor(g_blk, factor, out, dim_index, beta2):
    B = factor.shape[-1]
    stride_r, stride_k = g_blk.stride(dim_index), g_blk.stride(1 - dim_index)
    tiles = triton.cdiv(B, TILE["BLOCK_I"]) * triton.cdiv(B, TILE["BLOCK_J"])
    _factor_ema_kernel[(tiles,)](g_blk, factor, out, stride_r, stride_k, B, beta2, **TILE, **LAUNCH)


def run(grad, left, right, block_size, beta2):
    M, N = grad.shape
    B = block_size
    left_out = torch.empty_like(left)
    right_out = torch.empty_like(right)
    blocks_per_row = N // B
    for blk in range(left.shape[0]):
        r0 = (blk // blocks_per_row) * B
        c0 = (blk % blocks_per_row) * B
        g_blk = grad[r0:r0 + B, c0:c0 + B]
        for dim_index, (factor, out) in enumerate(((left, left_out), (right, right_out))):
            _update_factor(g_blk, factor[blk], out[blk], dim_index, beta2)
    return left_out, right_out
