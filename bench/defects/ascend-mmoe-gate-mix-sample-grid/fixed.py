"""MMoE gate mixing: per task, softmax over the expert gate logits and an expert-weighted sum."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _mmoe_mix(x, g, out, B, E, H, T: tl.constexpr,
              ROWS: tl.constexpr, BLOCK_E: tl.constexpr, BLOCK_H: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    r = tl.arange(0, ROWS)
    e = tl.arange(0, BLOCK_E)
    h = tl.arange(0, BLOCK_H)
    eh_mask = (e[:, None] < E) & (h[None, :] < H)
    for blk in range(pid, tl.cdiv(B, ROWS), nprog):
        b = blk * ROWS + r
        bm = b < B
        xe = tl.load(x + b[:, None, None] * (E * H) + e[None, :, None] * H + h[None, None, :],
                     mask=bm[:, None, None] & eh_mask[None, :, :], other=0.0).to(tl.float32)
        for t in tl.static_range(T):
            logit = tl.load(g + b[:, None] * (T * E) + t * E + e[None, :],
                            mask=bm[:, None] & (e[None, :] < E), other=-float("inf"))
            m = tl.max(logit, axis=1)
            p = tl.exp(logit - m[:, None])
            p = p / tl.sum(p, axis=1)[:, None]
            y = tl.sum(p[:, :, None] * xe, axis=1)
            tl.store(out + t * B * H + b[:, None] * H + h[None, :], y.to(out.dtype.element_ty),
                     mask=bm[:, None] & (h[None, :] < H))


def run(x: torch.Tensor, gate_logits: torch.Tensor) -> torch.Tensor:
    B, E, H = x.shape
    T = gate_logits.shape[1]
    out = torch.empty((T, B, H), device=x.device, dtype=x.dtype)
    ROWS = 4
    grid = (max(1, min(_VECTOR_CORES, triton.cdiv(B, ROWS))),)
    _mmoe_mix[grid](x, gate_logits, out, B, E, H, T=T, ROWS=ROWS,
                    BLOCK_E=triton.next_power_of_2(E), BLOCK_H=triton.next_power_of_2(H))
    return out
