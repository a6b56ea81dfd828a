"""Sinc resampling as a polyphase GEMM: frames x taps (each frame a contiguous window of the waveform)
times taps x output phases, tiled over (phase block, frame block, clip)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _frame_window(x_b, offs_m, offs_k, L, ORIG, WIDTH, KW):
    src = offs_m[:, None] * ORIG + offs_k[None, :] - WIDTH
    m = (src >= 0) & (src < L) & (offs_k[None, :] < KW)
    return tl.load(x_b + src, mask=m, other=0.0)


@triton.jit
def sinc_resample_kernel(x_ptr, kern_ptr, out_ptr, L, n_frames, n_out, ORIG, NEW, WIDTH, KW,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_m = tl.program_id(1)
    b = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    x_b = x_ptr + b * L
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, KW, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        a = _frame_window(x_b, offs_m, offs_k, L, ORIG, WIDTH, KW)
        w = tl.load(kern_ptr + offs_n[None, :] * KW + offs_k[:, None],
                    mask=(offs_k[:, None] < KW) & (offs_n[None, :] < NEW), other=0.0)
        acc = tl.dot(a, w, acc)
    dst = offs_m[:, None] * NEW + offs_n[None, :]
    m = (offs_m[:, None] < n_frames) & (offs_n[None, :] < NEW) & (dst < n_out)
    tl.store(out_ptr + b * n_out + dst, acc, mask=m)


def run(waveform: torch.Tensor, kernel: torch.Tensor, orig: int, new: int, width: int) -> torch.Tensor:
    B, L = waveform.shape
    KW = kernel.shape[1]
    n_frames = L // orig + 1
    n_out = -(-new * L // orig)
    out = torch.empty((B, n_out), device=waveform.device, dtype=torch.float32)
    meta = {"BLOCK_M": 128, "BLOCK_N": 32, "BLOCK_K": 32}
    grid = (triton.cdiv(new, meta["BLOCK_N"]), triton.cdiv(n_frames, meta["BLOCK_M"]), B)
    sinc_resample_kernel[grid](waveform, kernel, out, L, n_frames, n_out, orig, new, width, KW, **meta,
                               num_warps=4)
    return out
