"""GKD forward KL(teacher || student) from raw logits, one program per token, one pass over the
vocabulary: lane-wise online log-sum-exp for both distributions plus the running
sum of exp(t - m_t) * (t - s), rescaled whenever the teacher's running max moves."""
import torch
import triton
import triton.language as tl


@triton.jit
def _merge_lanes(m, z):
    m_all = tl.max(m, axis=0)
    return m_all, tl.sum(z * tl.exp(m - m_all), axis=0)


@triton.jit
def forward_kl_kernel(s_ptr, t_ptr, out_ptr, V, stride_row, inv_t, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    s_ptr += row * stride_row
    t_ptr += row * stride_row
    ms = tl.full([BLOCK], -1e30, tl.float32)
    mt = tl.full([BLOCK], -1e30, tl.float32)
    zs = tl.zeros([BLOCK], dtype=tl.float32)
    zt = tl.zeros([BLOCK], dtype=tl.float32)
    w = tl.zeros([BLOCK], dtype=tl.float32)          # sum exp(t - mt) * (t - s), per lane
    for start in range(0, V, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < V
        s = tl.load(s_ptr + offs, mask=mask, other=0.0).to(tl.float32) * inv_t
        t = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32) * inv_t
        s_in = tl.where(mask, s, float("-inf"))
        t_in = tl.where(mask, t, float("-inf"))
        ms_new = tl.maximum(ms, s_in)
        mt_new = tl.maximum(mt, t_in)
        zs = zs * tl.exp(ms - ms_new) + tl.exp(s_in - ms_new)
        alpha = tl.exp(mt - mt_new)
        pt = tl.exp(t_in - mt_new)
        zt = zt * alpha + pt
        w = w * alpha + pt * (t - s)
        ms, mt = ms_new, mt_new
    max_s, sum_s = _merge_lanes(ms, zs)
    max_t, sum_t = _merge_lanes(mt, zt)
    w_all = tl.sum(w * tl.exp(mt - max_t), axis=0)
    lse_s = max_s + tl.log(sum_s)
    lse_t = max_t + tl.log(sum_t)
    tl.store(out_ptr + row, w_all / sum_t - lse_t + lse_s)


def run(student_logits: torch.Tensor, teacher_logits: torch.Tensor, temperature: float) -> torch.Tensor:
    N, V = student_logits.shape
    out = torch.empty(N, dtype=torch.float32, device=student_logits.device)
    forward_kl_kernel[(N,)](student_logits, teacher_logits, out, V, student_logits.stride(0),
                            1.0 / temperature, BLOCK=4096, num_warps=8)
    return out
