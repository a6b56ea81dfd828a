"""wav2vec2 positional conv embedding: grouped Conv1d (K taps, SamePad) + GELU + residual, one program per
(frame block, group, batch), accumulating each tap as tensor-core dots over slices of the group's inputs."""
import torch
import triton
import triton.language as tl


@triton.jit
def _gelu(h):
    return 0.5 * h * (1.0 + tl.math.erf(h * 0.7071067811865476))


@triton.jit
def _tap_slice(x_g, w_g, t_in, tmask, ci, imask, offs_o, omask, k, C, CG, K):
    xs = tl.load(x_g + t_in[:, None] * C + ci[None, :], mask=tmask[:, None] & imask[None, :], other=0.0)
    ws = tl.load(w_g + offs_o[None, :] * (K * CG) + k * CG + ci[:, None], mask=imask[:, None] & omask[None, :],
                 other=0.0)
    return xs, ws


@triton.jit
def pos_conv_embed_kernel(x_ptr, w_ptr, bias_ptr, out_ptr, T, C, CG, K, PAD,
                          BLOCK_T: tl.constexpr, BLOCK_CI: tl.constexpr, BLOCK_CG: tl.constexpr):
    pid_t = tl.program_id(0)
    g = tl.program_id(1)
    b = tl.program_id(2)
    offs_t = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    offs_o = tl.arange(0, BLOCK_CG)
    omask = offs_o < CG
    offs_i = tl.arange(0, BLOCK_CI)
    x_g = x_ptr + b * T * C + g * CG
    w_g = w_ptr + g * CG * K * CG
    acc = tl.zeros((BLOCK_T, BLOCK_CG), dtype=tl.float32)
    for k in range(0, K):
        t_in = offs_t + k - PAD
        tmask = (t_in >= 0) & (t_in < T)
        for i0 in range(0, CG, BLOCK_CI):
            ci = i0 + offs_i
            xs, ws = _tap_slice(x_g, w_g, t_in, tmask, ci, ci < CG, offs_o, omask, k, C, CG, K)
            acc = tl.dot(xs, ws, acc)
    bias = tl.load(bias_ptr + g * CG + offs_o, mask=omask, other=0.0).to(tl.float32)
    io = offs_t[:, None] * C + offs_o[None, :]
    m = (offs_t < T)[:, None] & omask[None, :]
    res = tl.load(x_g + io, mask=m, other=0.0).to(tl.float32)
    y = res + _gelu(acc + bias[None, :])
    tl.store(out_ptr + b * T * C + g * CG + io, y.to(out_ptr.dtype.element_ty), mask=m)


def run(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, groups: int) -> torch.Tensor:
    B, T, C = x.shape
    CG, K = weight.shape[1], weight.shape[2]
    w_packed = weight.permute(0, 2, 1).contiguous()  # [C out, K, C/G in]
    out = torch.empty_like(x)
    meta = {"BLOCK_T": 64, "BLOCK_CI": 16, "BLOCK_CG": triton.next_power_of_2(CG)}
    grid = (triton.cdiv(T, meta["BLOCK_T"]), groups, B)
    pos_conv_embed_kernel[grid](x, w_packed, bias, out, T, C, CG, K, K // 2, **meta, num_warps=8)
    return out
