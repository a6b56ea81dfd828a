"""Mamba-2 chunk cumsum: each program walks the positions of its chunk for a block of BLOCK_SIZE_H heads."""
import torch
import triton
import triton.language as tl


@triton.jit
def _dt_activation(dt, bias, dt_min, dt_max):
    dt = dt + bias
    dt = tl.where(dt <= 20.0, tl.log(1.0 + tl.exp(dt)), dt)
    return tl.minimum(tl.maximum(dt, dt_min), dt_max)


@triton.heuristics({"BLOCK_SIZE_H": lambda args: min(16, triton.next_power_of_2(args["nheads"]))})
@triton.jit
def _chunk_cumsum_fwd_kernel(
    dt_ptr, A_ptr, dt_bias_ptr, dt_out_ptr, dA_cumsum_ptr,
    seqlen, nheads, chunk_size, dt_min, dt_max,
    stride_dt_batch, stride_dt_seqlen, stride_dt_head,
    stride_out_batch, stride_out_head, stride_out_chunk, stride_out_csize,
    BLOCK_SIZE_H: tl.constexpr,
):
    pid_b = tl.program_id(0)
    pid_c = tl.program_id(1)
    pid_h = tl.program_id(2)
    dt_ptr += pid_b * stride_dt_batch + pid_c * chunk_size * stride_dt_seqlen
    dt_out_ptr += pid_b * stride_out_batch + pid_c * stride_out_chunk
    dA_cumsum_ptr += pid_b * stride_out_batch + pid_c * stride_out_chunk

    offs_h = pid_h * BLOCK_SIZE_H + tl.arange(0, BLOCK_SIZE_H)
    chunk_size_limit = tl.minimum(chunk_size, seqlen - pid_c * chunk_size)
    mask_h = offs_h < nheads

    A = tl.load(A_ptr + offs_h, mask=mask_h, other=0.0).to(tl.float32)
    bias = tl.load(dt_bias_ptr + offs_h, mask=mask_h, other=0.0).to(tl.float32)
    dA_cs = tl.zeros([BLOCK_SIZE_H], dtype=tl.float32)
    for c in range(0, chunk_size):
        in_seq = mask_h & (c < chunk_size_limit)
        dt = tl.load(dt_ptr + offs_h * stride_dt_head + c * stride_dt_seqlen, mask=in_seq, other=0.0).to(tl.float32)
        dt = _dt_activation(dt, bias, dt_min, dt_max)
        dt = tl.where(in_seq, dt, 0.0)
        out_offs = offs_h * stride_out_head + c * stride_out_csize
        tl.store(dt_out_ptr + out_offs, dt, mask=mask_h)
        dA_cs += dt * A
        tl.store(dA_cumsum_ptr + out_offs, dA_cs, mask=mask_h)


def run(dt, A, dt_bias, chunk_size, dt_min, dt_max):
    batch, seqlen, nheads = dt.shape
    nchunks = triton.cdiv(seqlen, chunk_size)
    dt_out = torch.empty(batch, nheads, nchunks, chunk_size, device=dt.device, dtype=torch.float32)
    dA_cumsum = torch.empty_like(dt_out)
    grid = lambda META: (batch, nchunks, triton.cdiv(nheads, META["BLOCK_SIZE_H"]))  # noqa: E731
    _chunk_cumsum_fwd_kernel[grid](
        dt, A, dt_bias, dt_out, dA_cumsum,
        seqlen, nheads, chunk_size, dt_min, dt_max,
        dt.stride(0), dt.stride(1), dt.stride(2),
        dt_out.stride(0), dt_out.stride(1), dt_out.stride(2), dt_out.stride(3),
    )
    return dA_cumsum, dt_out
