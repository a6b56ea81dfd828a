"""Deep-supervision weighted cross-entropy over four decoder scales (nnU-Net DeepSupervisionWrapper)."""
import torch
import triton
import triton.language as tl

N_SCALES = 4
NUM_CORES = 40


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
def _ce_item(logits, target, k, V, C, w, BLOCK: tl.constexpr):
    n_vb = tl.cdiv(V, BLOCK)
    return w * _ce_block(logits, target, k // n_vb, (k % n_vb) * BLOCK, V, C, BLOCK)


@triton.jit
def _ds_ce_partials(l0, l1, l2, l3, t0, t1, t2, t3, partial, B, C, V0, V1, V2, V3,
                    w0, w1, w2, w3, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n0 = B * tl.cdiv(V0, BLOCK)
    n1 = B * tl.cdiv(V1, BLOCK)
    n2 = B * tl.cdiv(V2, BLOCK)
    n3 = B * tl.cdiv(V3, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for item in range(pid, n0 + n1 + n2 + n3, nprog):
        if item < n0:
            acc += _ce_item(l0, t0, item, V0, C, w0, BLOCK)
        elif item < n0 + n1:
            acc += _ce_item(l1, t1, item - n0, V1, C, w1, BLOCK)
        elif item < n0 + n1 + n2:
            acc += _ce_item(l2, t2, item - n0 - n1, V2, C, w2, BLOCK)
        else:
            acc += _ce_item(l3, t3, item - n0 - n1 - n2, V3, C, w3, BLOCK)
    tl.store(partial + pid, tl.sum(acc, axis=0))


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
    BLOCK = 2048
    n_items = sum(B * triton.cdiv(v, BLOCK) for v in vox)
    grid = min(NUM_CORES, n_items)
    partial = torch.empty(grid, device=logits[0].device, dtype=torch.float32)
    out = torch.empty((), device=logits[0].device, dtype=torch.float32)
    _ds_ce_partials[(grid,)](*logits, *targets, partial, B, C, *vox, *weights, BLOCK=BLOCK)
    _sum_partials[(1,)](partial, out, grid, BLOCK=triton.next_power_of_2(grid))
    return out
