"""Per-token-group int8 quant: each program takes 8 groups of one token as an [8, GROUP] tile and reduces along axis 1."""
import torch
import triton
import triton.language as tl


@triton.jit
def group_quant_kernel(x_ptr, q_ptr, s_ptr, H, NG, GROUP: tl.constexpr, GROUPS_PER_PROGRAM: tl.constexpr):
    t = tl.program_id(0)
    gids = tl.program_id(1) * GROUPS_PER_PROGRAM + tl.arange(0, GROUPS_PER_PROGRAM)
    gmask = gids < NG
    cols = gids[:, None] * GROUP + tl.arange(0, GROUP)[None, :]
    x = tl.load(x_ptr + t * H + cols, mask=gmask[:, None], other=0.0).to(tl.float32)
    scale = tl.maximum(tl.max(tl.abs(x), axis=1), 1e-10) * (1.0 / 127.0)
    q = tl.clamp(tl.floor(tl.div_rn(x, scale[:, None]) + 0.5), -127.0, 127.0)
    tl.store(q_ptr + t * H + cols, q.to(tl.int8), mask=gmask[:, None])
    tl.store(s_ptr + t * NG + gids, scale, mask=gmask)


def run(x: torch.Tensor, group: int) -> tuple:
    T, H = x.shape
    ng = H // group
    q = torch.empty((T, H), device=x.device, dtype=torch.int8)
    scales = torch.empty((T, ng), device=x.device, dtype=torch.float32)
    group_quant_kernel[(T, triton.cdiv(ng, 8))](x, q, scales, H, ng, GROUP=group, GROUPS_PER_PROGRAM=8, num_warps=4)
    return q, scales
