"""SigLIP MAP head: the shared probe query attends over each image's patch tokens, per head."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40


@triton.jit
def _map_head_attention(q, k, v, out, n_items, N, H, D, stride_b, stride_n, sm_scale,
                        BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    dims = tl.arange(0, BLOCK_D)
    toks = tl.arange(0, BLOCK_N)
    toks_f = toks.to(tl.float32)
    dmask = dims < D
    for item in range(pid, n_items, nprog):
        b = item // H
        h = item - b * H
        qh = tl.load(q + h * D + dims, mask=dmask, other=0.0).to(tl.float32) * sm_scale
        k_base = k + b * stride_b + h * D
        v_base = v + b * stride_b + h * D
        m_i = -float("inf")
        l_i = 0.0
        acc = tl.zeros([BLOCK_N, BLOCK_D], dtype=tl.float32)
        for start in range(0, N, BLOCK_N):
            rows = start + toks
            tile_mask = (rows[:, None] < N) & dmask[None, :]
            k_tile = tl.load(k_base + rows[:, None] * stride_n + dims[None, :], mask=tile_mask, other=0.0)
            s = tl.sum(k_tile.to(tl.float32) * qh[None, :], axis=1)
            s = tl.where(start + toks_f < N, s, -float("inf"))
            m_new = tl.maximum(m_i, tl.max(s, axis=0))
            alpha = tl.exp(m_i - m_new)
            p = tl.exp(s - m_new)
            l_i = l_i * alpha + tl.sum(p, axis=0)
            v_tile = tl.load(v_base + rows[:, None] * stride_n + dims[None, :], mask=tile_mask, other=0.0)
            acc = acc * alpha + p[:, None] * v_tile.to(tl.float32)
            m_i = m_new
        pooled = tl.sum(acc, axis=0) / l_i
        tl.store(out + b * H * D + h * D + dims, pooled.to(out.dtype.element_ty), mask=dmask)


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    H, D = q.shape
    B, N, HD = k.shape
    out = torch.empty((B, HD), dtype=k.dtype, device=k.device)
    n_items = B * H
    grid = (min(VECTOR_CORES, n_items),)
    _map_head_attention[grid](q, k, v, out, n_items, N, H, D, k.stride(0), k.stride(1), D ** -0.5,
                              BLOCK_N=64, BLOCK_D=triton.next_power_of_2(D))
    return out
