"""Router logits: 64-token tiles multiplied with the gate weight by tl.dot along H."""
import torch
import triton
import triton.language as tl


@triton.jit
def router_logits_kernel(x_ptr, w_ptr, out_ptr, T, H, E: tl.constexpr, BLOCK_T: tl.constexpr,
                         BLOCK_H: tl.constexpr):
    rt = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
    experts = tl.arange(0, E)
    acc = tl.zeros((BLOCK_T, E), dtype=tl.float32)
    for h0 in range(0, H, BLOCK_H):
        hs = h0 + tl.arange(0, BLOCK_H)
        hmask = hs < H
        x = tl.load(x_ptr + rt[:, None] * H + hs[None, :], mask=(rt[:, None] < T) & hmask[None, :], other=0.0)
        wt = tl.load(w_ptr + experts[None, :] * H + hs[:, None], mask=hmask[:, None], other=0.0)  # [BLOCK_H, E]
        acc = tl.dot(x, wt, acc)
    tl.store(out_ptr + rt[:, None] * E + experts[None, :], acc, mask=rt[:, None] < T)


def run(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    T, H = x.shape
    E = w.shape[0]
    out = torch.empty((T, E), dtype=torch.float32, device=x.device)
    router_logits_kernel[(triton.cdiv(T, 64),)](x, w, out, T, H, E=E, BLOCK_T=64, BLOCK_H=64,
                                               num_warps=4, num_stages=3)
    return out
