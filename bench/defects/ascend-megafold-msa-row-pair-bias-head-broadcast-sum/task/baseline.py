"""MSA row attention pair bias: layer norm over c_z, then the per-head projection, stored head-major."""
import torch
import triton
import triton.language as tl

AI_CORES = 20  # Atlas A2 (910B4): 20 AI (cube) cores, 40 vector cores
EPS = 1e-5


@triton.jit
def _pair_bias(z, gamma, beta, w, out, n_pairs, eps,
               C: tl.constexpr, H: tl.constexpr, H_PAD: tl.constexpr, BLOCK_P: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    ch = tl.arange(0, C)
    hd = tl.arange(0, H_PAD)
    g = tl.load(gamma + ch)
    b = tl.load(beta + ch)
    wt = tl.load(w + hd[:, None] * C + ch[None, :], mask=hd[:, None] < H, other=0.0)
    for t in range(pid, tl.cdiv(n_pairs, BLOCK_P), nprog):
        p = t * BLOCK_P + tl.arange(0, BLOCK_P)
        pm = p < n_pairs
        x = tl.load(z + p[:, None] * C + ch[None, :], mask=pm[:, None], other=0.0).to(tl.float32)
        mean = tl.sum(x, axis=1) / C
        xc = x - mean[:, None]
        rstd = tl.rsqrt(tl.sum(xc * xc, axis=1) / C + eps)
        xn = xc * rstd[:, None] * g[None, :] + b[None, :]
        bias = tl.dot(wt, tl.trans(xn.to(wt.dtype)))
        tl.store(out + hd[:, None] * n_pairs + p[None, :], bias.to(out.dtype.element_ty),
                 mask=(hd[:, None] < H) & pm[None, :])


def run(z: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    N, _, C = z.shape
    H = w.shape[0]
    out = torch.empty((H, N, N), device=z.device, dtype=z.dtype)
    n_pairs = N * N
    BLOCK_P = 64
    grid = (min(AI_CORES, triton.cdiv(n_pairs, BLOCK_P)),)
    _pair_bias[grid](z, gamma, beta, w, out, n_pairs, EPS,
                     C=C, H=H, H_PAD=max(16, triton.next_power_of_2(H)), BLOCK_P=BLOCK_P)
    return out
