"""vLLM-style per-token-group int8 quant: one program per (token, group), the warp count derived from the group size."""
import torch
import triton
import triton.language as tl


@triton.jit
def group_quant_kernel(x_ptr, q_ptr, s_ptr, H, NG, GROUP: tl.constexpr):
    t = tl.program_id(0)
    gid = tl.program_id(1)
    cols = gid * GROUP + tl.arange(0, GROUP)
    x = tl.load(x_ptr + t * H + cols).to(tl.float32)
    scale = tl.maximum(tl.max(tl.abs(x), axis=0), 1e-10) * (1.0 / 127.0)
    q = tl.clamp(tl.floor(tl.div_rn(x, scale) + 0.5), -127.0, 127.0)
    tl.store(q_ptr + t * H + cols, q.to(tl.int8))
    tl.store(s_ptr + t * NG + gid, scale)


def run(x: torch.Tensor, group: int) -> tuple:
    T, H = x.shape
    ng = H // group
    q = torch.empty((T, H), device=x.device, dtype=torch.int8)
    scales = torch.empty((T, ng), device=x.device, dtype=torch.float32)
    num_warps = min(max(group // 256, 1), 8)
    group_quant_kernel[(T, ng)](x, q, scales, H, ng, GROUP=group, num_warps=num_warps)
    return q, scales
