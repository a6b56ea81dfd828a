"""Post-order pruning with per-category rescaling over a tree's operation list (codon model, 64 padded states)."""
import torch
import triton
import triton.language as tl

_PROGRAMS_PER_CATEGORY = 5


@triton.jit
def _update_partials(tips, inner, log_scale, matrices, ops, op_start, n_ops, n_tips, P,
                     stride_node, stride_cat, stride_edge, stride_scale,
                     S: tl.constexpr, BP: tl.constexpr):
    cat = tl.program_id(0)
    pid = tl.program_id(1)
    nprog = tl.num_programs(1)
    rows = tl.arange(0, S)
    cols = tl.arange(0, S)
    m_off = cat * S * S + rows[:, None] * S + cols[None, :]
    for k in range(op_start, op_start + n_ops):
        dest = tl.load(ops + 3 * k)
        child1 = tl.load(ops + 3 * k + 1)
        child2 = tl.load(ops + 3 * k + 2)
        mat1_t = tl.trans(tl.load(matrices + child1 * stride_edge + m_off))
        mat2_t = tl.trans(tl.load(matrices + child2 * stride_edge + m_off))
        for blk in range(pid, tl.cdiv(P, BP), nprog):
            pats = blk * BP + tl.arange(0, BP)
            pmask = pats < P
            offs = cat * stride_cat + pats[:, None] * S + cols[None, :]
            if child1 < n_tips:
                lk1 = tl.load(tips + child1 * stride_node + offs, mask=pmask[:, None], other=0.0)
            else:
                lk1 = tl.load(inner + (child1 - n_tips) * stride_node + offs, mask=pmask[:, None], other=0.0)
            if child2 < n_tips:
                lk2 = tl.load(tips + child2 * stride_node + offs, mask=pmask[:, None], other=0.0)
            else:
                lk2 = tl.load(inner + (child2 - n_tips) * stride_node + offs, mask=pmask[:, None], other=0.0)
            v = tl.dot(lk1, mat1_t) * tl.dot(lk2, mat2_t)
            vmax = tl.max(v, axis=1)
            tl.store(inner + (dest - n_tips) * stride_node + offs, v / vmax[:, None], mask=pmask[:, None])
            tl.store(log_scale + (dest - n_tips) * stride_scale + cat * P + pats, tl.log(vmax), mask=pmask)


def run(tips: torch.Tensor, matrices: torch.Tensor, ops: torch.Tensor, level_sizes: tuple) -> tuple:
    N, C, P, S = tips.shape
    inner = torch.empty((N - 1, C, P, S), device=tips.device, dtype=tips.dtype)
    log_scale = torch.empty((N - 1, C, P), device=tips.device, dtype=tips.dtype)
    BP = 64
    grid = (C, min(_PROGRAMS_PER_CATEGORY, triton.cdiv(P, BP)))
    for k in range(ops.shape[0]):
        _update_partials[grid](tips, inner, log_scale, matrices, ops, k, 1, N, P,
                               tips.stride(0), tips.stride(1), matrices.stride(0), log_scale.stride(0),
                               S=S, BP=BP)
    return inner, log_scale
