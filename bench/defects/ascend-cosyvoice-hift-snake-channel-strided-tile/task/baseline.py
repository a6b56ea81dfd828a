"""Snake activation y = x + sin(alpha x)^2 / alpha over a [B, C, T] vocoder feature map (per-channel alpha)."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40  # Atlas A2 (910B): 20 AI cores x 2 AIV


@triton.jit
def _snake_fwd(x, alpha, y, C, T, n_cblk, n_tblk, n_tiles,
               BLOCK_C: tl.constexpr, BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cc = tl.arange(0, BLOCK_C)
    tt = tl.arange(0, BLOCK_T)
    for tile in range(pid, n_tiles, nprog):
        b = tile // (n_cblk * n_tblk)
        rest = tile % (n_cblk * n_tblk)
        c = (rest // n_tblk) * BLOCK_C + cc
        t = (rest % n_tblk) * BLOCK_T + tt
        c_ok = c < C
        a = tl.load(alpha + c, mask=c_ok, other=1.0)
        inv_a = 1.0 / (a + 1e-9)
        offs = b * C * T + c[:, None] * T + t[None, :]
        ok = c_ok[:, None] & (t < T)[None, :]
        v = tl.load(x + offs, mask=ok, other=0.0)
        s = tl.sin(v * a[:, None])
        tl.store(y + offs, v + inv_a[:, None] * s * s, mask=ok)


def run(x: torch.Tensor, alpha: torch.Tensor) -> torch.Tensor:
    B, C, T = x.shape
    y = torch.empty_like(x)
    BLOCK_C, BLOCK_T = 8, 1024
    n_cblk, n_tblk = triton.cdiv(C, BLOCK_C), triton.cdiv(T, BLOCK_T)
    n_tiles = B * n_cblk * n_tblk
    grid = (min(n_tiles, NUM_VECTOR_CORES),)
    _snake_fwd[grid](x, alpha, y, C, T, n_cblk, n_tblk, n_tiles, BLOCK_C=BLOCK_C, BLOCK_T=BLOCK_T)
    return y
