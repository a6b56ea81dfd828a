"""allRank NDCG@k of padded slates: DCG by predicted rank over IDCG by ideal rank, per cut-off."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _ndcg_kernel(y_pred, y_true, ats, out, B, L, stride_p, stride_t, stride_o,
                 BI: tl.constexpr, BL: tl.constexpr, NA: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BL)
    cmask = cols < L
    cols_f = cols.to(tl.float32)
    k = tl.arange(0, NA)
    at = tl.load(ats + k)
    for b in range(pid, B, nprog):
        # the whole slate is the partner tile; padded documents (y_true = -1) get key -inf and gain 0
        t_j = tl.load(y_true + b * stride_t + cols, mask=cmask, other=-1.0)
        p_j = tl.load(y_pred + b * stride_p + cols, mask=cmask, other=0.0)
        kp_j = tl.where(t_j >= 0.0, p_j, -float("inf"))
        kt_j = tl.where(t_j >= 0.0, t_j, -float("inf"))
        dcg = tl.zeros([NA], dtype=tl.float32)
        idcg = tl.zeros([NA], dtype=tl.float32)
        for i0 in range(0, L, BI):
            rows = i0 + tl.arange(0, BI)
            rmask = rows < L
            t_i = tl.load(y_true + b * stride_t + rows, mask=rmask, other=-1.0)
            p_i = tl.load(y_pred + b * stride_p + rows, mask=rmask, other=0.0)
            valid_i = t_i >= 0.0
            kp_i = tl.where(valid_i, p_i, -float("inf"))
            kt_i = tl.where(valid_i, t_i, -float("inf"))
            gain_i = tl.where(valid_i, tl.exp2(t_i) - 1.0, 0.0)
            # stable descending sort position: larger key, or equal key at an earlier position
            earlier = cols_f[None, :] < rows.to(tl.float32)[:, None]
            ahead_p = (kp_j[None, :] > kp_i[:, None]) | ((kp_j[None, :] == kp_i[:, None]) & earlier)
            ahead_t = (kt_j[None, :] > kt_i[:, None]) | ((kt_j[None, :] == kt_i[:, None]) & earlier)
            rank_p = tl.sum(ahead_p.to(tl.float32), axis=1)
            rank_t = tl.sum(ahead_t.to(tl.float32), axis=1)
            dg_p = gain_i / tl.log2(rank_p + 2.0)
            dg_t = gain_i / tl.log2(rank_t + 2.0)
            dcg += tl.sum(tl.where(rank_p[:, None] < at[None, :], dg_p[:, None], 0.0), axis=0)
            idcg += tl.sum(tl.where(rank_t[:, None] < at[None, :], dg_t[:, None], 0.0), axis=0)
        ndcg = tl.where(idcg > 0.0, dcg / tl.maximum(idcg, 1e-30), 1.0)
        tl.store(out + b * stride_o + k, ndcg)


def run(y_pred: torch.Tensor, y_true: torch.Tensor, ats: torch.Tensor) -> torch.Tensor:
    B, L = y_pred.shape
    na = ats.numel()
    out = torch.empty((B, na), device=y_pred.device, dtype=torch.float32)
    BL = triton.next_power_of_2(L)
    grid = (min(_VECTOR_CORES, B),)
    _ndcg_kernel[grid](y_pred, y_true, ats, out, B, L, y_pred.stride(0), y_true.stride(0), out.stride(0),
                       BI=8, BL=BL, NA=na)
    return out
