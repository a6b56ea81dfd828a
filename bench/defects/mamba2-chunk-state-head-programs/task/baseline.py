"""Mamba-2 SSD chunk state: one program per (state tile, batch * chunk, head)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _decayed_b(b_ptrs, dA_last, dA_ptrs, dt_ptrs, k_valid, n_valid):
    b = tl.load(b_ptrs, mask=k_valid[:, None] & n_valid[None, :], other=0.0)
    dA_k = tl.load(dA_ptrs, mask=k_valid, other=0.0)
    dt_k = tl.load(dt_ptrs, mask=k_valid, other=0.0)
    scale = tl.exp(dA_last - dA_k) * dt_k
    return (b * scale[:, None]).to(b.dtype)


@triton.jit
def chunk_state_kernel(x_ptr, b_ptr, dt_ptr, dA_ptr, st_ptr, nchunks, H, P, N,
                       sx_b, sx_l, sx_h, sb_b, sb_l, sb_g, sd_b, sd_h, sd_c,
                       ss_b, ss_c, ss_h, ss_p,
                       HEADS_PER_GROUP: tl.constexpr, CHUNK: tl.constexpr,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_mn = tl.program_id(0)
    pid_bc = tl.program_id(1)
    h = tl.program_id(2)
    num_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid_mn // num_n
    pid_n = pid_mn % num_n
    b = pid_bc // nchunks
    c = pid_bc % nchunks
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    m_valid = offs_m < P
    n_valid = offs_n < N
    x_base = x_ptr + b * sx_b + c * CHUNK * sx_l + h * sx_h
    b_base = b_ptr + b * sb_b + c * CHUNK * sb_l + (h // HEADS_PER_GROUP) * sb_g
    d_off = b * sd_b + h * sd_h + c * sd_c
    dA_last = tl.load(dA_ptr + d_off + CHUNK - 1)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, CHUNK, BLOCK_K):
        kk = k0 + offs_k
        k_valid = kk < CHUNK
        x = tl.load(x_base + offs_m[:, None] + kk[None, :] * sx_l, mask=m_valid[:, None] & k_valid[None, :], other=0.0)
        bb = _decayed_b(b_base + kk[:, None] * sb_l + offs_n[None, :], dA_last,
                        dA_ptr + d_off + kk, dt_ptr + d_off + kk, k_valid, n_valid)
        acc += tl.dot(x, bb)
    st = st_ptr + b * ss_b + c * ss_c + h * ss_h + offs_m[:, None] * ss_p + offs_n[None, :]
    tl.store(st, acc, mask=m_valid[:, None] & n_valid[None, :])


def run(x: torch.Tensor, Bm: torch.Tensor, dt: torch.Tensor, dA_cumsum: torch.Tensor) -> torch.Tensor:
    B, L, H, P = x.shape
    G, N = Bm.shape[2], Bm.shape[3]
    nchunks, chunk = dt.shape[2], dt.shape[3]
    states = torch.empty(B, nchunks, H, P, N, device=x.device, dtype=torch.float32)
    BLOCK_M = max(16, min(64, triton.next_power_of_2(P)))
    BLOCK_N = max(16, min(128, triton.next_power_of_2(N)))
    BLOCK_K = min(64, chunk)
    launch = dict(num_warps=4, num_stages=3)
    grid = (triton.cdiv(P, BLOCK_M) * triton.cdiv(N, BLOCK_N), B * nchunks, H)
    chunk_state_kernel[grid](x, Bm, dt, dA_cumsum, states, nchunks, H, P, N,
                             x.stride(0), x.stride(1), x.stride(2), Bm.stride(0), Bm.stride(1), Bm.stride(2),
                             dt.stride(0), dt.stride(1), dt.stride(2),
                             states.stride(0), states.stride(1), states.stride(2), states.stride(3),
                             HEADS_PER_GROUP=H // G, CHUNK=chunk,
                             BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, **launch)
    return states
