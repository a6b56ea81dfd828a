"""Min-sum check-node update of LDPC belief propagation (Sionna LDPCBPDecoder, cn_update="minsum")."""
import torch
import triton
import triton.language as tl

ROWS = 32


@triton.jit
def _cn_minsum(v2c, c2v, row_ptr, n_edges, n_cn, ROWS: tl.constexpr, DMAX: tl.constexpr):
    cn = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    word = tl.program_id(1)
    live = cn < n_cn
    start = tl.load(row_ptr + cn, mask=live, other=0)
    end = tl.load(row_ptr + cn + 1, mask=live, other=0)
    j = tl.arange(0, DMAX)
    e = start[:, None] + j[None, :]
    ok = e < end[:, None]
    base = word * n_edges
    msg = tl.load(v2c + base + e, mask=ok, other=float("inf"))
    mag = tl.abs(msg)
    neg = msg < 0
    min1 = tl.min(mag, axis=1)
    pos1 = tl.min(tl.where(mag == min1[:, None], j[None, :], DMAX), axis=1)
    min2 = tl.min(tl.where(j[None, :] == pos1[:, None], float("inf"), mag), axis=1)
    parity = tl.sum(neg.to(tl.int32), axis=1) & 1
    ext = tl.where(j[None, :] == pos1[:, None], min2[:, None], min1[:, None])
    flip = (parity[:, None] ^ neg.to(tl.int32)) != 0
    tl.store(c2v + base + e, tl.where(flip, -ext, ext), mask=ok)


def run(v2c: torch.Tensor, row_ptr: torch.Tensor) -> torch.Tensor:
    B, E = v2c.shape
    n_cn = row_ptr.numel() - 1
    dmax = 32  # BG1's largest row weight (19), padded to a power of two
    c2v = torch.empty_like(v2c)
    _cn_minsum[(triton.cdiv(n_cn, ROWS), B)](v2c, c2v, row_ptr, E, n_cn, ROWS=ROWS, DMAX=dmax, num_warps=4)
    return c2v
