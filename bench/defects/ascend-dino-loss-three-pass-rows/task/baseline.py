"""DINOLoss on Ascend: a row kernel over (teacher crop, student crop, image) pairs, grid sized to the vector
cores, each row streamed in UB-sized blocks with running max / sum-exp statistics; then a mean kernel."""
import torch
import triton
import triton.language as tl

CORE_NUM = 40
BLOCK_K = 4096
BLOCK_R = 1024


@triton.jit
def _pair_rows(r, batch, ncrops):
    pair = r // batch
    b = r % batch
    iq = pair // (ncrops - 1)
    j = pair % (ncrops - 1)
    v = tl.where(j >= iq, j + 1, j)
    return iq * batch + b, v * batch + b


@triton.jit
def _scaled_logits(t_row, s_row, center_ptr, k0, K, inv_tt, inv_ts, BLOCK_K: tl.constexpr):
    offs = k0 + tl.arange(0, BLOCK_K)
    mask = offs < K
    t = tl.load(t_row + offs, mask=mask, other=0.0)
    c = tl.load(center_ptr + offs, mask=mask, other=0.0)
    s = tl.load(s_row + offs, mask=mask, other=0.0)
    tt = tl.where(mask, (t - c) * inv_tt, float("-inf"))
    ss = s * inv_ts
    ss_lse = tl.where(mask, ss, float("-inf"))
    return tt, ss, ss_lse


@triton.jit
def dino_row_loss_kernel(student_ptr, teacher_ptr, center_ptr, row_loss_ptr, batch, ncrops, n_rows, K,
                         inv_ts, inv_tt, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for r in range(pid, n_rows, nprog):
        t_idx, s_idx = _pair_rows(r, batch, ncrops)
        t_row = teacher_ptr + t_idx * K
        s_row = student_ptr + s_idx * K
        m_t = float("-inf")
        z_t = 0.0
        cross = 0.0
        m_s = float("-inf")
        z_s = 0.0
        for k0 in range(0, K, BLOCK_K):
            tt, ss, ss_lse = _scaled_logits(t_row, s_row, center_ptr, k0, K, inv_tt, inv_ts, BLOCK_K)
            new_t = tl.maximum(m_t, tl.max(tt, axis=0))
            alpha_t = tl.exp(m_t - new_t)
            e_t = tl.exp(tt - new_t)
            z_t = z_t * alpha_t + tl.sum(e_t, axis=0)
            cross = cross * alpha_t + tl.sum(e_t * ss, axis=0)
            m_t = new_t
            new_s = tl.maximum(m_s, tl.max(ss_lse, axis=0))
            z_s = z_s * tl.exp(m_s - new_s) + tl.sum(tl.exp(ss_lse - new_s), axis=0)
            m_s = new_s
        tl.store(row_loss_ptr + r, m_s + tl.log(z_s) - cross / z_t)


@triton.jit
def mean_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n)


def run(student: torch.Tensor, teacher: torch.Tensor, center: torch.Tensor, student_temp: float,
        teacher_temp: float) -> torch.Tensor:
    K = teacher.shape[1]
    batch = teacher.shape[0] // 2
    ncrops = student.shape[0] // batch
    n_rows = 2 * (ncrops - 1) * batch
    row_loss = torch.empty(n_rows, dtype=torch.float32, device=student.device)
    loss = torch.empty((), dtype=torch.float32, device=student.device)
    grid = (min(CORE_NUM, n_rows),)
    dino_row_loss_kernel[grid](student, teacher, center, row_loss, batch, ncrops, n_rows, K,
                               1.0 / student_temp, 1.0 / teacher_temp, BLOCK_K=BLOCK_K)
    mean_kernel[(1,)](row_loss, loss, n_rows, BLOCK=BLOCK_R)
    return loss
