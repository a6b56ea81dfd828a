"""FiBiNET field-each bilinear interaction: (v_i W_i) * v_j for every field pair i < j."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20


@triton.jit
def _bilinear_each(emb, w, out, B, F, stride_eb, stride_ob,
                   D: tl.constexpr, BLOCK_B: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rb = tl.arange(0, BLOCK_B)
    d = tl.arange(0, D)
    for blk in range(pid, tl.cdiv(B, BLOCK_B), nprog):
        rows = blk * BLOCK_B + rb
        rmask = rows < B
        e_rows = emb + rows[:, None] * stride_eb + d[None, :]
        o_rows = out + rows[:, None] * stride_ob + d[None, :]
        for i in range(0, F - 1):
            vi = tl.load(e_rows + i * D, mask=rmask[:, None], other=0.0)
            wi = tl.load(w + i * D * D + d[:, None] * D + d[None, :])
            vw = tl.dot(vi, wi)
            first = i * (2 * F - i - 1) // 2 - i - 1
            for j in range(i + 1, F):
                vj = tl.load(e_rows + j * D, mask=rmask[:, None], other=0.0)
                p = vw * vj.to(tl.float32)
                tl.store(o_rows + (first + j) * D, p.to(out.dtype.element_ty), mask=rmask[:, None])


def run(emb: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    B, F, D = emb.shape
    P = F * (F - 1) // 2
    out = torch.empty((B, P, D), device=emb.device, dtype=emb.dtype)
    BLOCK_B = 32
    grid = (max(1, min(_AI_CORES, triton.cdiv(B, BLOCK_B))),)
    _bilinear_each[grid](emb, w, out, B, F, emb.stride(0), out.stride(0), D=D, BLOCK_B=BLOCK_B)
    return out
