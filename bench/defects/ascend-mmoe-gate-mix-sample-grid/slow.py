"""MMoE gate mixing: per task, softmax over the expert gate logits and an expert-weighted sum."""
import torch
import triton
import triton.language as tl


@triton.jit
def _mmoe_mix(x, g, out, B, E, H, T: tl.constexpr,
              BLOCK_E: tl.constexpr, BLOCK_H: tl.constexpr):
    b = tl.program_id(0)
    e = tl.arange(0, BLOCK_E)
    h = tl.arange(0, BLOCK_H)
    em = e < E
    hm = h < H
    xe = tl.load(x + b * (E * H) + e[:, None] * H + h[None, :],
                 mask=em[:, None] & hm[None, :], other=0.0).to(tl.float32)
    for t in tl.static_range(T):
        logit = tl.load(g + b * (T * E) + t * E + e, mask=em, other=-float("inf"))
        p = tl.exp(logit - tl.max(logit, axis=0))
        p = p / tl.sum(p, axis=0)
        y = tl.sum(p[:, None] * xe, axis=0)
        tl.store(out + t * B * H + b * H + h, y.to(out.dtype.element_ty), mask=hm)


def run(x: torch.Tensor, gate_logits: torch.Tensor) -> torch.Tensor:
    B, E, H = x.shape
    T = gate_logits.shape[1]
    out = torch.empty((T, B, H), device=x.device, dtype=x.dtype)
    _mmoe_mix[(B,)](x, gate_logits, out, B, E, H, T=T,
                    BLOCK_E=triton.next_power_of_2(E), BLOCK_H=triton.next_power_of_2(H))
    return out
