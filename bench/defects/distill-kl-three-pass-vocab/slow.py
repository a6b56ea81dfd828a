"""GKD forward KL(teacher || student) from raw logits, one program per token, written like the
textbook softmax: a max pass, a sum-of-exponentials pass, then the KL pass."""
import torch
import triton
import triton.language as tl


@triton.jit
def _load_scaled(ptr, offs, mask, inv_t):
    return tl.load(ptr + offs, mask=mask, other=float("-inf")).to(tl.float32) * inv_t


@triton.jit
def _row_max(s_ptr, t_ptr, V, inv_t, BLOCK: tl.constexpr):
    ms = tl.full([BLOCK], float("-inf"), tl.float32)
    mt = tl.full([BLOCK], float("-inf"), tl.float32)
    for start in range(0, V, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < V
        ms = tl.maximum(ms, _load_scaled(s_ptr, offs, mask, inv_t))
        mt = tl.maximum(mt, _load_scaled(t_ptr, offs, mask, inv_t))
    return tl.max(ms, axis=0), tl.max(mt, axis=0)


@triton.jit
def _row_lse(s_ptr, t_ptr, V, inv_t, max_s, max_t, BLOCK: tl.constexpr):
    zs = tl.zeros([BLOCK], dtype=tl.float32)
    zt = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, V, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < V
        zs += tl.exp(_load_scaled(s_ptr, offs, mask, inv_t) - max_s)
        zt += tl.exp(_load_scaled(t_ptr, offs, mask, inv_t) - max_t)
    return max_s + tl.log(tl.sum(zs, axis=0)), max_t + tl.log(tl.sum(zt, axis=0))


@triton.jit
def forward_kl_kernel(s_ptr, t_ptr, out_ptr, V, stride_row, inv_t, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    s_ptr += row * stride_row
    t_ptr += row * stride_row
    max_s, max_t = _row_max(s_ptr, t_ptr, V, inv_t, BLOCK)
    lse_s, lse_t = _row_lse(s_ptr, t_ptr, V, inv_t, max_s, max_t, BLOCK)
    kl = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, V, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < V
        log_pt = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32) * inv_t - lse_t
        log_ps = tl.load(s_ptr + offs, mask=mask, other=0.0).to(tl.float32) * inv_t - lse_s
        kl += tl.where(mask, tl.exp(log_pt) * (log_pt - log_ps), 0.0)
    tl.store(out_ptr + row, tl.sum(kl, axis=0))


def run(student_logits: torch.Tensor, teacher_logits: torch.Tensor, temperature: float) -> torch.Tensor:
    N, V = student_logits.shape
    out = torch.empty(N, dtype=torch.float32, device=student_logits.device)
    forward_kl_kernel[(N,)](student_logits, teacher_logits, out, V, student_logits.stride(0),
                            1.0 / temperature, BLOCK=4096, num_warps=8)
    return out
