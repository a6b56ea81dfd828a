"""Mamba-2 chunk cumsum: each program takes a [BLOCK_SIZE_H, chunk] tile of dt and scans it with tl.cumsum."""
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
    BLOCK_SIZE_H: tl.constexpr, BLOCK_SIZE_CHUNK: tl.constexpr,
):
    pid_b = tl.program_id(0)
    pid_c = tl.program_id(1)
    pid_h = tl.program_id(2)
    dt_ptr += pid_b * stride_dt_batch + pid_c * chunk_size * stride_dt_seqlen
    dt_out_ptr += pid_b * stride_out_batch + pid_c * stride_out_chunk
    dA_cumsum_ptr += pid_b * stride_out_batch + pid_c * stride_out_chunk

    offs_h = pid_h * BLOCK_SIZE_H + tl.arange(0, BLOCK_SIZE_H)
    offs_c = tl.arange(0, BLOCK_SIZE_CHUNK)
    chunk_size_limit = tl.minimum(chunk_size, seqlen - pid_c * chunk_size)
    mask_h = offs_h < nheads
    mask_hc = mask_h[:, None] & (offs_c[None, :] < chunk_size_limit)

    A = tl.load(A_ptr + offs_h, mask=mask_h, other=0.0).to(tl.float32)
    bias = tl.load(dt_bias_ptr + offs_h, mask=mask_h, other=0.0).to(tl.float32)
    dt = tl.load(dt_ptr + offs_h[:, None] * stride_dt_head + offs_c[None, :] * stride_dt_seqlen,
                 mask=mask_hc, other=0.0).to(tl.float32)
    dt = _dt_activation(dt, bias[:, None], dt_min, dt_max)
    dt = tl.where(mask_hc, dt, 0.0)
    out_offs = offs_h[:, None] * stride_out_head + offs_c[None, :] * stride_out_csize
    mask_out = mask_h[:, None] & (offs_c[None, :] < chunk_size)
    tl.store(dt_out_ptr + out_offs, dt, mask=mask_out)
    dA_cs = tl.cumsum(dt * A[:, None], axis=1)
    tl.store(dA_cumsum_ptr + out_offs, dA_cs, mask=mask_out)


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
        BLOCK_SIZE_CHUNK=triton.next_power_of_2(chunk_size),
    )
    return dA_cumsum, dt_out
