"""Hyena implicit filter: positional-embedding MLP with Sin activations times the exponential decay window."""
import torch
import triton
import triton.language as tl


@triton.jit
def _sin_linear(h, w_ptr, b_ptr, f_ptr, F: tl.constexpr):
    i = tl.arange(0, F)
    w = tl.load(w_ptr + i[:, None] * F + i[None, :])
    y = tl.sum(h[:, None] * w, axis=0) + tl.load(b_ptr + i)
    return tl.sin(tl.load(f_ptr + i) * y)


@triton.jit
def _hyena_filter(z, w_in, b_in, w_mid, b_mid, freq, w_out, deltas, out, D,
                  E: tl.constexpr, E_PAD: tl.constexpr, F: tl.constexpr, BLOCK_D: tl.constexpr):
    pos = tl.program_id(0)
    e = tl.arange(0, E_PAD)
    f = tl.arange(0, F)
    emb = tl.load(z + pos * E + e, mask=e < E, other=0.0)
    w0 = tl.load(w_in + e[:, None] * F + f[None, :], mask=(e < E)[:, None], other=0.0)
    h = tl.sin(tl.load(freq + f) * (tl.sum(emb[:, None] * w0, axis=0) + tl.load(b_in + f)))
    h = _sin_linear(h, w_mid, b_mid, freq + F, F)
    h = _sin_linear(h, w_mid + F * F, b_mid + F, freq + 2 * F, F)
    t = tl.load(z + pos * E)
    for d0 in range(0, D, BLOCK_D):
        d = d0 + tl.arange(0, BLOCK_D)
        dmask = d < D
        wo = tl.load(w_out + f[:, None] * D + d[None, :], mask=dmask[None, :], other=0.0)
        k = tl.sum(h[:, None] * wo, axis=0)
        decay = tl.exp(-t * tl.abs(tl.load(deltas + d, mask=dmask, other=0.0)))
        tl.store(out + pos * D + d, k * decay, mask=dmask)


def run(z, w_in, b_in, w_mid, b_mid, freq, w_out, deltas) -> torch.Tensor:
    L, E = z.shape
    F, D = w_out.shape
    out = torch.empty(L, D, device=z.device, dtype=torch.float32)
    BLOCK_D = min(128, triton.next_power_of_2(D))
    _hyena_filter[(L,)](z, w_in, b_in, w_mid, b_mid, freq, w_out, deltas, out, D,
                        E=E, E_PAD=triton.next_power_of_2(E), F=F, BLOCK_D=BLOCK_D, num_warps=4)
    return out
