"""M-RoPE: one program per token, a loop over its q and k heads, each head rotated by a helper."""
import torch
import triton
import triton.language as tl


@triton.jit
def _mrope_angles(pos_ptr, inv_freq_ptr, token, T, S0: tl.constexpr, S1: tl.constexpr, HALF: tl.constexpr):
    """Angle of each frequency band: t, h or w position (by mrope_section) times its inverse frequency."""
    j = tl.arange(0, HALF)
    axis = tl.where(j < S0, 0, tl.where(j < S0 + S1, 1, 2))
    pos = tl.load(pos_ptr + axis * T + token).to(tl.float32)
    return pos * tl.load(inv_freq_ptr + j)


@triton.jit
def _rotate_head(src_ptr, dst_ptr, pos_ptr, inv_freq_ptr, token, T,
                 S0: tl.constexpr, S1: tl.constexpr, HALF: tl.constexpr):
    angle = _mrope_angles(pos_ptr, inv_freq_ptr, token, T, S0, S1, HALF)
    cos = tl.cos(angle)
    sin = tl.sin(angle)
    j = tl.arange(0, HALF)
    x1 = tl.load(src_ptr + j).to(tl.float32)
    x2 = tl.load(src_ptr + HALF + j).to(tl.float32)
    tl.store(dst_ptr + j, (x1 * cos - x2 * sin).to(dst_ptr.dtype.element_ty))
    tl.store(dst_ptr + HALF + j, (x2 * cos + x1 * sin).to(dst_ptr.dtype.element_ty))


@triton.jit
def mrope_kernel(pos_ptr, q_ptr, k_ptr, qo_ptr, ko_ptr, inv_freq_ptr, T, HQ, HK,
                 S0: tl.constexpr, S1: tl.constexpr, D: tl.constexpr):
    token = tl.program_id(0)
    for h in range(HQ):
        off = (token * HQ + h) * D
        _rotate_head(q_ptr + off, qo_ptr + off, pos_ptr, inv_freq_ptr, token, T, S0, S1, D // 2)
    for h in range(HK):
        off = (token * HK + h) * D
        _rotate_head(k_ptr + off, ko_ptr + off, pos_ptr, inv_freq_ptr, token, T, S0, S1, D // 2)


def run(positions, q, k, inv_freq, s0, s1) -> tuple:
    T = positions.shape[1]
    D = 2 * inv_freq.shape[0]
    q_out, k_out = torch.empty_like(q), torch.empty_like(k)
    mrope_kernel[(T,)](positions, q, k, q_out, k_out, inv_freq, T, q.shape[1] // D, k.shape[1] // D,
                       S0=s0, S1=s1, D=D, num_warps=1)
    return q_out, k_out
