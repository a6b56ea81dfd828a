"""Target attention pooling over a padded behaviour sequence (SIM exact search unit, one head)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _target_attention_fwd(q_ptr, k_ptr, v_ptr, len_ptr, out_ptr, B, L, scale,
                          D: tl.constexpr, BL: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    t = tl.arange(0, BL)
    d = tl.arange(0, D)
    t_f = t.to(tl.float32)
    for b in range(pid, B, nprog):
        n = tl.load(len_ptr + b)
        tmask = t < n
        q = tl.load(q_ptr + b * D + d)
        seq = b * L * D
        # K^T tile [D, BL]: scores = q . K^T
        kt = tl.load(k_ptr + seq + d[:, None] + t[None, :] * D, mask=tmask[None, :], other=0.0)
        s = tl.sum(q[:, None] * kt, axis=0) * scale
        s = tl.where(t_f < n.to(tl.float32), s, float("-inf"))
        m = tl.max(s, axis=0)
        p = tl.exp(s - m)
        p = p / tl.sum(p, axis=0)
        v = tl.load(v_ptr + seq + t[:, None] * D + d[None, :], mask=tmask[:, None], other=0.0)
        o = tl.sum(p[:, None] * v, axis=0)
        tl.store(out_ptr + b * D + d, o)


def run(query: torch.Tensor, keys: torch.Tensor, values: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    B, L, D = keys.shape
    out = torch.empty((B, D), device=query.device, dtype=query.dtype)
    BL = triton.next_power_of_2(L)
    grid = (min(_VECTOR_CORES, B),)
    _target_attention_fwd[grid](query, keys, values, lengths, out, B, L, 1.0 / D ** 0.5, D=D, BL=BL)
    return out
