"""Router logits: one program per token, the gate weight streamed in [E, 512] slices and reduced against the token."""
import torch
import triton
import triton.language as tl


@triton.jit
def router_logits_kernel(x_ptr, w_ptr, out_ptr, H, E: tl.constexpr, BLOCK_H: tl.constexpr):
    tok = tl.program_id(0)
    experts = tl.arange(0, E)
    acc = tl.zeros((E,), dtype=tl.float32)
    for h0 in range(0, H, BLOCK_H):
        hs = h0 + tl.arange(0, BLOCK_H)
        hmask = hs < H
        x = tl.load(x_ptr + tok * H + hs, mask=hmask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + experts[:, None] * H + hs[None, :], mask=hmask[None, :], other=0.0).to(tl.float32)
        acc += tl.sum(w * x[None, :], axis=1)
    tl.store(out_ptr + tok * E + experts, acc)


def run(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    T, H = x.shape
    E = w.shape[0]
    out = torch.empty((T, E), dtype=torch.float32, device=x.device)
    router_logits_kernel[(T,)](x, w, out, H, E=E, BLOCK_H=512)
    return out
