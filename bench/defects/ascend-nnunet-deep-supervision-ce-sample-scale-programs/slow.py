"""Deep-supervision weighted cross-entropy over four decoder scales (nnU-Net DeepSupervisionWrapper)."""
import torch
import triton
import triton.language as tl

N_SCALES = 4


@triton.jit
def _ce_block(logits, target, b, v0, V, C, BLOCK: tl.constexpr):
    offs = v0 + tl.arange(0, BLOCK)
    mask = offs < V
    t = tl.load(target + b * V + offs, mask=mask, other=-1.0)
    row = logits + b * C * V + offs
    m = tl.load(row, mask=mask, other=0.0).to(tl.float32)
    s = tl.full((BLOCK,), 1.0, tl.float32)
    picked = m
    for c in range(1, C):
        x = tl.load(row + c * V, mask=mask, other=0.0).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
        picked = tl.where(t == c, x, picked)
    return tl.where(t >= 0.0, m + tl.log(s) - picked, 0.0)


@triton.jit
def _ce_sample_sum(logits, target, b, V, C, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for v0 in range(0, V, BLOCK):
        acc += _ce_block(logits, target, b, v0, V, C, BLOCK)
    return tl.sum(acc, axis=0)


@triton.jit
def _ds_ce_partials(l0, l1, l2, l3, t0, t1, t2, t3, partial, B, C, V0, V1, V2, V3,
                    w0, w1, w2, w3, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    scale = tl.program_id(1)
    if scale == 0:
        total = w0 * _ce_sample_sum(l0, t0, b, V0, C, BLOCK)
    elif scale == 1:
        total = w1 * _ce_sample_sum(l1, t1, b, V1, C, BLOCK)
    elif scale == 2:
        total = w2 * _ce_sample_sum(l2, t2, b, V2, C, BLOCK)
    else:
        total = w3 * _ce_sample_sum(l3, t3, b, V3, C, BLOCK)
    tl.store(partial + scale * B + b, total)


@triton.jit
def _sum_partials(partial, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    p = tl.load(partial + offs, mask=offs < n, other=0.0)
    tl.store(out, tl.sum(p, axis=0))


def _weights() -> list[float]:
    w = [1.0 / 2 ** i for i in range(N_SCALES + 1)]
    w[-1] = 0.0
    return [x / sum(w) for x in w[:N_SCALES]]


def run(*inputs: torch.Tensor) -> torch.Tensor:
    logits, targets = inputs[:N_SCALES], inputs[N_SCALES:]
    B, C = logits[0].shape[:2]
    vox = [x.shape[2] * x.shape[3] * x.shape[4] for x in logits]
    weights = [w / (B * v) for w, v in zip(_weights(), vox)]
    partial = torch.empty(B * N_SCALES, device=logits[0].device, dtype=torch.float32)
    out = torch.empty((), device=logits[0].device, dtype=torch.float32)
    _ds_ce_partials[(B, N_SCALES)](*logits, *targets, partial, B, C, *vox, *weights, BLOCK=2048)
    _sum_partials[(1,)](partial, out, B * N_SCALES, BLOCK=triton.next_power_of_2(B * N_SCALES))
    return out
