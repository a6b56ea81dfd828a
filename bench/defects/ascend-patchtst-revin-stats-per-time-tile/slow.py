"""PatchTST RevIN 'norm': per-series mean and stdev over time, then the affine normalisation."""
import torch
import triton
import triton.language as tl

VECTOR_CORES = 40


@triton.jit
def _revin_norm(x, w, bias, y, mean, stdev, L, C, eps, n_items, n_c, n_t,
                BLOCK_T: tl.constexpr, BLOCK_C: tl.constexpr):
    for item in range(tl.program_id(0), n_items, tl.num_programs(0)):
        bt = item // (n_c * n_t)
        rest = item % (n_c * n_t)
        tb = rest // n_c
        c = (rest % n_c) * BLOCK_C + tl.arange(0, BLOCK_C)
        c_ok = c < C
        base = bt * L * C
        shift = tl.load(x + base + c, mask=c_ok, other=0.0)
        s1 = tl.zeros([BLOCK_T, BLOCK_C], dtype=tl.float32)
        s2 = tl.zeros([BLOCK_T, BLOCK_C], dtype=tl.float32)
        for t0 in range(0, L, BLOCK_T):
            t = t0 + tl.arange(0, BLOCK_T)
            ok = (t < L)[:, None] & c_ok[None, :]
            v = tl.load(x + base + t[:, None] * C + c[None, :], mask=ok, other=0.0)
            v = tl.where(ok, v - shift[None, :], 0.0)
            s1 += v
            s2 += v * v
        m1 = tl.sum(s1, axis=0) / L
        var = tl.maximum(tl.sum(s2, axis=0) / L - m1 * m1, 0.0)
        mu = shift + m1
        sd = tl.sqrt(var + eps)
        tl.store(mean + bt * C + c, mu, mask=c_ok & (tb == 0))
        tl.store(stdev + bt * C + c, sd, mask=c_ok & (tb == 0))
        scale = tl.load(w + c, mask=c_ok, other=1.0) / sd
        offset = tl.load(bias + c, mask=c_ok, other=0.0) - mu * scale
        t = tb * BLOCK_T + tl.arange(0, BLOCK_T)
        ok = (t < L)[:, None] & c_ok[None, :]
        offs = base + t[:, None] * C + c[None, :]
        v = tl.load(x + offs, mask=ok, other=0.0)
        tl.store(y + offs, v * scale[None, :] + offset[None, :], mask=ok)


def run(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor) -> tuple:
    B, L, C = x.shape
    x = x.contiguous()
    y = torch.empty_like(x)
    mean = torch.empty((B, 1, C), device=x.device, dtype=torch.float32)
    stdev = torch.empty((B, 1, C), device=x.device, dtype=torch.float32)
    BLOCK_T, BLOCK_C = 32, 128
    n_c, n_t = triton.cdiv(C, BLOCK_C), triton.cdiv(L, BLOCK_T)
    n_items = B * n_c * n_t
    _revin_norm[(min(n_items, VECTOR_CORES),)](x, w, bias, y, mean, stdev, L, C, 1e-5, n_items, n_c, n_t,
                                                BLOCK_T=BLOCK_T, BLOCK_C=BLOCK_C)
    return y, mean, stdev
