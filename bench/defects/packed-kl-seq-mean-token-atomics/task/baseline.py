"""Per-sample mean KL over packed samples: one program per sample reduces its own contiguous token range."""
import torch
import triton
import triton.language as tl


@triton.jit
def _k3(logp, ref_logp):
    log_ratio = ref_logp - logp
    k3 = tl.exp(log_ratio) - log_ratio - 1.0
    return tl.minimum(tl.maximum(k3, -10.0), 10.0)


@triton.jit
def kl_segment_kernel(logp_ptr, ref_ptr, mask_ptr, cu_ptr, out_ptr, BLOCK: tl.constexpr):
    s = tl.program_id(0)
    start = tl.load(cu_ptr + s)
    end = tl.load(cu_ptr + s + 1)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    cnt = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(start, end, BLOCK):
        offs = off + tl.arange(0, BLOCK)
        inb = offs < end
        logp = tl.load(logp_ptr + offs, mask=inb, other=0.0)
        ref = tl.load(ref_ptr + offs, mask=inb, other=0.0)
        w = tl.load(mask_ptr + offs, mask=inb, other=0).to(tl.float32)
        acc += _k3(logp, ref) * w
        cnt += w
    total = tl.sum(acc, axis=0)
    count = tl.sum(cnt, axis=0)
    tl.store(out_ptr + s, total / tl.maximum(count, 1.0))


def run(logp, ref_logp, action_mask, seq_ids, cu_seqlens):
    S = cu_seqlens.numel() - 1
    out = torch.empty(S, dtype=torch.float32, device=logp.device)
    kl_segment_kernel[(S,)](logp, ref_logp, action_mask, cu_seqlens, out, BLOCK=1024, num_warps=4)
    return out
