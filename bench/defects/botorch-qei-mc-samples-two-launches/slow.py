"""MC qEI: reparameterised posterior samples mean + L z, then improvement max over q and mean over samples."""
import torch
import triton
import triton.language as tl

BLOCK_B = 32
BLOCK_S = 16


@triton.jit
def _posterior_samples(mean, scale_tril, base, samples, B, S, q,
                       BLOCK_B: tl.constexpr, BLOCK_S: tl.constexpr, QP: tl.constexpr):
    # sample tiles are [QP, BLOCK_S, BLOCK_B]: (point of the q-batch, MC sample, candidate set);
    # samples is [S, B, q], BoTorch's sample layout
    b = tl.program_id(0) * BLOCK_B + tl.arange(0, BLOCK_B)
    i = tl.arange(0, QP)
    ib_ok = (i[:, None] < q) & (b[None, :] < B)
    mu = tl.load(mean + b[None, :] * q + i[:, None], mask=ib_ok, other=0.0)
    for s0 in range(0, S, BLOCK_S):
        s = s0 + tl.arange(0, BLOCK_S)
        s_ok = s < S
        y = tl.zeros([QP, BLOCK_S, BLOCK_B], dtype=tl.float32) + mu[:, None, :]
        for k in tl.static_range(QP):
            zk = tl.load(base + s * q + k, mask=s_ok & (k < q), other=0.0)
            lk = tl.load(scale_tril + (b[None, :] * q + i[:, None]) * q + k, mask=ib_ok & (k < q), other=0.0)
            y += lk[:, None, :] * zk[None, :, None]
        ok = ib_ok[:, None, :] & s_ok[None, :, None]
        offs = s[None, :, None] * (B * q) + (b[None, :] * q + i[:, None])[:, None, :]
        tl.store(samples + offs, y, mask=ok)


@triton.jit
def _qei_reduce(samples, out, best_f, B, S, q,
                BLOCK_B: tl.constexpr, BLOCK_S: tl.constexpr, QP: tl.constexpr):
    b = tl.program_id(0) * BLOCK_B + tl.arange(0, BLOCK_B)
    i = tl.arange(0, QP)
    ib_ok = (i[:, None] < q) & (b[None, :] < B)
    acc = tl.zeros([BLOCK_S, BLOCK_B], dtype=tl.float32)
    for s0 in range(0, S, BLOCK_S):
        s = s0 + tl.arange(0, BLOCK_S)
        s_ok = s < S
        ok = ib_ok[:, None, :] & s_ok[None, :, None]
        offs = s[None, :, None] * (B * q) + (b[None, :] * q + i[:, None])[:, None, :]
        y = tl.load(samples + offs, mask=ok, other=0.0)
        imp = tl.where(ok, y - best_f, 0.0)
        acc += tl.maximum(tl.max(imp, axis=0), 0.0)
    tl.store(out + b, tl.sum(acc, axis=0) / S, mask=b < B)


def run(mean: torch.Tensor, scale_tril: torch.Tensor, base_samples: torch.Tensor, best_f: float) -> torch.Tensor:
    B, q = mean.shape
    S = base_samples.shape[0]
    QP = triton.next_power_of_2(q)
    samples = torch.empty((S, B, q), device=mean.device, dtype=torch.float32)
    out = torch.empty(B, device=mean.device, dtype=torch.float32)
    grid = (triton.cdiv(B, BLOCK_B),)
    _posterior_samples[grid](mean, scale_tril, base_samples, samples, B, S, q,
                             BLOCK_B=BLOCK_B, BLOCK_S=BLOCK_S, QP=QP, num_warps=4)
    _qei_reduce[grid](samples, out, best_f, B, S, q,
                      BLOCK_B=BLOCK_B, BLOCK_S=BLOCK_S, QP=QP, num_warps=4)
    return out
