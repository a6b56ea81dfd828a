"""Gemma-2 logits soft-cap and sampler temperature, fused into one elementwise kernel."""
import torch
import triton
import triton.language as tl


@triton.jit
def _softcap(x, cap):
    # cap * tanh(x / cap), tanh(y) = 1 - 2 / (exp(2y) + 1)
    return cap * (1.0 - 2.0 / (tl.exp(2.0 * x / cap) + 1.0))


@triton.jit
def softcap_temperature_kernel(x_ptr, temp_ptr, out_ptr, vocab, cap, BLOCK: tl.constexpr):
    req = tl.program_id(0)
    blk = tl.program_id(1)
    inv_t = 1.0 / tl.load(temp_ptr + req)
    row = req.to(tl.int64) * vocab
    offs = blk * BLOCK + tl.arange(0, BLOCK)
    m = offs < vocab
    x = tl.load(x_ptr + row + offs, mask=m, other=0.0).to(tl.float32)
    tl.store(out_ptr + row + offs, _softcap(x, cap) * inv_t, mask=m)


def run(logits, temperature, softcap):
    B, V = logits.shape
    out = torch.empty((B, V), device=logits.device, dtype=torch.float32)
    BLOCK = 2048
    softcap_temperature_kernel[(B, triton.cdiv(V, BLOCK))](logits, temperature, out, V, softcap, BLOCK=BLOCK)
    return out
