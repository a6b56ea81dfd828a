"""Grouped per-offset GEMM of a gather-GEMM-scatter sparse convolution: partial[seg_k] = gathered[seg_k] @ W[:, k, :]^T."""
import torch
import triton
import triton.language as tl

_AI_CORES = 20  # Atlas A2 (910B)
BLOCK_M = 32
BLOCK_K = 16


@triton.jit
def _offset_gemm(buf, seg, weight, out, CIN, COUT, KV,
                 BM: tl.constexpr, BK: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rm = tl.arange(0, BM)
    rk = tl.arange(0, BK)
    rn = tl.arange(0, BN)
    nmask = rn < COUT
    for k in range(KV):
        start = tl.load(seg + k)
        stop = tl.load(seg + k + 1)
        w_k = weight + k * CIN
        for t in range(pid, tl.cdiv(stop - start, BM), nprog):
            rows = start + t * BM + rm
            rmask = rows < stop
            acc = tl.zeros([BM, BN], dtype=tl.float32)
            for c0 in range(0, CIN, BK):
                ck = c0 + rk
                kmask = ck < CIN
                a = tl.load(buf + rows[:, None] * CIN + ck[None, :],
                            mask=rmask[:, None] & kmask[None, :], other=0.0)
                w = tl.load(w_k + rn[:, None] * (KV * CIN) + ck[None, :],
                            mask=nmask[:, None] & kmask[None, :], other=0.0)
                acc += tl.sum(a.to(tl.float32)[:, None, :] * w.to(tl.float32)[None, :, :], axis=2)
            tl.store(out + rows[:, None] * COUT + rn[None, :], acc.to(out.dtype.element_ty),
                     mask=rmask[:, None] & nmask[None, :])


def run(gathered: torch.Tensor, seg: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    P, cin = gathered.shape
    cout, kv, _ = weight.shape
    out = torch.empty((P, cout), device=gathered.device, dtype=gathered.dtype)
    bn = max(16, triton.next_power_of_2(cout))
    grid = (min(_AI_CORES, triton.cdiv(P, BLOCK_M)),)
    _offset_gemm[grid](gathered, seg, weight, out, cin, cout, kv,
                       BM=BLOCK_M, BK=BLOCK_K, BN=bn)
    return out
