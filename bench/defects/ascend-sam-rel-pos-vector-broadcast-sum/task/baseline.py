"""SAM add_decomposed_rel_pos terms on Ascend: rel_h and rel_w, one launch each, grid sized to the AI
cores; every (b*head, row) task multiplies its query rows by the gathered relative-position rows."""
import torch
import triton
import triton.language as tl

CORE_NUM = 20
BLOCK_C = 16


@triton.jit
def _rel_pos_rows(q_rows, q_stride, table_ptr, pos, n_k, n_q, C, out_rows, out_stride,
                  BLOCK_Q: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_C: tl.constexpr):
    offs_k = tl.arange(0, BLOCK_K)
    k_mask = offs_k < n_k
    t_rows = table_ptr + (pos - offs_k + n_k - 1) * C
    for q0 in range(0, n_q, BLOCK_Q):
        offs_q = q0 + tl.arange(0, BLOCK_Q)
        q_mask = offs_q < n_q
        acc = tl.zeros([BLOCK_Q, BLOCK_K], dtype=tl.float32)
        for c0 in range(0, C, BLOCK_C):
            offs_c = c0 + tl.arange(0, BLOCK_C)
            c_mask = offs_c < C
            q = tl.load(q_rows + offs_q[:, None] * q_stride + offs_c[None, :],
                        mask=q_mask[:, None] & c_mask[None, :], other=0.0)
            r = tl.load(t_rows[:, None] + offs_c[None, :], mask=k_mask[:, None] & c_mask[None, :], other=0.0)
            acc = tl.dot(q, tl.trans(r), acc)
        tl.store(out_rows + offs_q[:, None] * out_stride + offs_k[None, :], acc,
                 mask=q_mask[:, None] & k_mask[None, :])


@triton.jit
def rel_h_kernel(q_ptr, table_ptr, out_ptr, n_bh, H, W, C,
                 BLOCK_Q: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for task in range(pid, n_bh * H, nprog):
        bh = task // H
        i = task % H
        _rel_pos_rows(q_ptr + (bh * H * W + i * W) * C, C, table_ptr, i, H, W, C,
                      out_ptr + (bh * H + i) * W * H, H, BLOCK_Q, BLOCK_K, BLOCK_C)


@triton.jit
def rel_w_kernel(q_ptr, table_ptr, out_ptr, n_bh, H, W, C,
                 BLOCK_Q: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for task in range(pid, n_bh * W, nprog):
        bh = task // W
        w = task % W
        _rel_pos_rows(q_ptr + (bh * H * W + w) * C, W * C, table_ptr, w, W, H, C,
                      out_ptr + (bh * H * W + w) * W, W * W, BLOCK_Q, BLOCK_K, BLOCK_C)


def _block_rows(n: int) -> int:
    return min(64, max(16, triton.next_power_of_2(n)))


def run(q: torch.Tensor, rel_pos_h: torch.Tensor, rel_pos_w: torch.Tensor, H: int, W: int) -> tuple:
    n_bh, _, C = q.shape
    rel_h = torch.empty((n_bh, H, W, H), dtype=torch.float32, device=q.device)
    rel_w = torch.empty((n_bh, H, W, W), dtype=torch.float32, device=q.device)
    h_grid = (min(CORE_NUM, n_bh * H),)
    w_grid = (min(CORE_NUM, n_bh * W),)
    rel_h_kernel[h_grid](q, rel_pos_h, rel_h, n_bh, H, W, C,
                         BLOCK_Q=_block_rows(W), BLOCK_K=max(16, triton.next_power_of_2(H)), BLOCK_C=BLOCK_C)
    rel_w_kernel[w_grid](q, rel_pos_w, rel_w, n_bh, H, W, C,
                         BLOCK_Q=_block_rows(H), BLOCK_K=max(16, triton.next_power_of_2(W)), BLOCK_C=BLOCK_C)
    return rel_h, rel_w
