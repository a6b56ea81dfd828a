"""Per-sample mean KL over packed samples, ported from index_add_: each token adds its masked k3 value and
its mask into its sample's slot with atomics, then a small kernel divides."""
import torch
import triton
import triton.language as tl


@triton.jit
def _k3(logp, ref_logp):
    log_ratio = ref_logp - logp
    k3 = tl.exp(log_ratio) - log_ratio - 1.0
    return tl.minimum(tl.maximum(k3, -10.0), 10.0)


@triton.jit
def kl_scatter_kernel(logp_ptr, ref_ptr, mask_ptr, seq_ptr, sums_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inb = offs < n
    logp = tl.load(logp_ptr + offs, mask=inb, other=0.0)
    ref = tl.load(ref_ptr + offs, mask=inb, other=0.0)
    w = tl.load(mask_ptr + offs, mask=inb, other=0).to(tl.float32)
    seq = tl.load(seq_ptr + offs, mask=inb, other=0)
    tl.atomic_add(sums_ptr + seq, _k3(logp, ref) * w, mask=inb)
    tl.atomic_add(counts_ptr + seq, w, mask=inb)


@triton.jit
def kl_divide_kernel(sums_ptr, counts_ptr, out_ptr, S, BLOCK_S: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_S + tl.arange(0, BLOCK_S)
    m = offs < S
    s = tl.load(sums_ptr + offs, mask=m, other=0.0)
    c = tl.load(counts_ptr + offs, mask=m, other=1.0)
    tl.store(out_ptr + offs, s / tl.maximum(c, 1.0), mask=m)


def run(logp, ref_logp, action_mask, seq_ids, cu_seqlens):
    n = logp.numel()
    S = cu_seqlens.numel() - 1
    sums = torch.zeros(S, dtype=torch.float32, device=logp.device)
    counts = torch.zeros(S, dtype=torch.float32, device=logp.device)
    out = torch.empty(S, dtype=torch.float32, device=logp.device)
    BLOCK = 1024
    kl_scatter_kernel[(triton.cdiv(n, BLOCK),)](logp, ref_logp, action_mask, seq_ids, sums, counts, n, BLOCK=BLOCK)
    kl_divide_kernel[(triton.cdiv(S, 256),)](sums, counts, out, S, BLOCK_S=256)
    return out
