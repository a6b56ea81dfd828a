"""Hyena implicit filter: positional-embedding MLP with Sin activations times the exponential decay window."""
import torch
import triton
import triton.language as tl


@triton.jit
def _sin_linear(h, w_ptr, b_ptr, f_ptr, F: tl.constexpr):
    i = tl.arange(0, F)
    w = tl.load(w_ptr + i[:, None] * F + i[None, :])
    y = tl.dot(h, w) + tl.load(b_ptr + i)[None, :]
    return tl.sin(tl.load(f_ptr + i)[None, :] * y)


@triton.jit
def _hyena_filter(z, w_in, b_in, w_mid, b_mid, freq, w_out, deltas, out, L, D,
                  E: tl.constexpr, F: tl.constexpr, BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_L + tl.arange(0, BLOCK_L)
    rmask = rows < L
    f = tl.arange(0, F)
    y = tl.zeros([BLOCK_L, F], dtype=tl.float32) + tl.load(b_in + f)[None, :]
    for e in tl.static_range(E):
        emb = tl.load(z + rows * E + e, mask=rmask, other=0.0)
        y += emb[:, None] * tl.load(w_in + e * F + f)[None, :]
    h = tl.sin(tl.load(freq + f)[None, :] * y)
    h = _sin_linear(h, w_mid, b_mid, freq + F, F)
    h = _sin_linear(h, w_mid + F * F, b_mid + F, freq + 2 * F, F)
    t = tl.load(z + rows * E, mask=rmask, other=0.0)
    for d0 in range(0, D, BLOCK_D):
        d = d0 + tl.arange(0, BLOCK_D)
        dmask = d < D
        wo = tl.load(w_out + f[:, None] * D + d[None, :], mask=dmask[None, :], other=0.0)
        k = tl.dot(h, wo)
        decay = tl.exp(-t[:, None] * tl.abs(tl.load(deltas + d, mask=dmask, other=0.0))[None, :])
        tl.store(out + rows[:, None] * D + d[None, :], k * decay, mask=rmask[:, None] & dmask[None, :])


def run(z, w_in, b_in, w_mid, b_mid, freq, w_out, deltas) -> torch.Tensor:
    L, E = z.shape
    F, D = w_out.shape
    out = torch.empty(L, D, device=z.device, dtype=torch.float32)
    BLOCK_L = 128
    BLOCK_D = min(64, triton.next_power_of_2(D))
    _hyena_filter[(triton.cdiv(L, BLOCK_L),)](z, w_in, b_in, w_mid, b_mid, freq, w_out, deltas, out, L, D,
                                              E=E, F=F, BLOCK_L=BLOCK_L, BLOCK_D=BLOCK_D, num_warps=8)
    return out
