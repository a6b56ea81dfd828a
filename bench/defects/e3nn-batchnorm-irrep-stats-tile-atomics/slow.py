"""e3nn BatchNorm (training) for "MUL0x0e + MUL1x1o + MUL2x2e" node features: batch statistics, rolled
running statistics and the normalised features."""
import torch
import triton
import triton.language as tl

BLOCK_N = 32   # nodes per tile
TILES = 16     # tiles walked by one statistics program


@triton.jit
def _bn_stats(x, sums, sqs, n_rows,
              D: tl.constexpr, MUL0: tl.constexpr, MUL1: tl.constexpr, MUL2: tl.constexpr,
              P0: tl.constexpr, P1: tl.constexpr, P2: tl.constexpr,
              BLOCK_N: tl.constexpr, TILES: tl.constexpr):
    pid = tl.program_id(0)
    u0 = tl.arange(0, P0)
    u1 = tl.arange(0, P1)
    u2 = tl.arange(0, P2)
    m1 = tl.arange(0, 4)
    m2 = tl.arange(0, 8)
    ok0 = u0 < MUL0
    ok1 = (u1 < MUL1)[:, None] & (m1 < 3)[None, :]
    ok2 = (u2 < MUL2)[:, None] & (m2 < 5)[None, :]
    col1 = MUL0 + u1[:, None] * 3 + m1[None, :]
    col2 = MUL0 + 3 * MUL1 + u2[:, None] * 5 + m2[None, :]
    chan0 = tl.zeros([BLOCK_N, P0], dtype=tl.int32) + u0[None, :]
    chan1 = tl.zeros([BLOCK_N, P1], dtype=tl.int32) + u1[None, :]
    chan2 = tl.zeros([BLOCK_N, P2], dtype=tl.int32) + u2[None, :]
    for t in range(TILES):
        rows = (pid * TILES + t) * BLOCK_N + tl.arange(0, BLOCK_N)
        rok = rows < n_rows
        row = x + rows * D
        v0 = tl.load(row[:, None] + u0[None, :], mask=rok[:, None] & ok0[None, :], other=0.0)
        v1 = tl.load(row[:, None, None] + col1[None, :, :], mask=rok[:, None, None] & ok1[None, :, :], other=0.0)
        v2 = tl.load(row[:, None, None] + col2[None, :, :], mask=rok[:, None, None] & ok2[None, :, :], other=0.0)
        # per node and channel: the component mean of the squares ("component" normalisation)
        q1 = tl.sum(v1 * v1, axis=2) * (1.0 / 3.0)
        q2 = tl.sum(v2 * v2, axis=2) * (1.0 / 5.0)
        # every node's contribution goes straight into its channel's running total
        mask0 = rok[:, None] & ok0[None, :]
        tl.atomic_add(sums + chan0, v0, mask=mask0)
        tl.atomic_add(sqs + chan0, v0 * v0, mask=mask0)
        tl.atomic_add(sqs + MUL0 + chan1, q1, mask=rok[:, None] & (u1 < MUL1)[None, :])
        tl.atomic_add(sqs + MUL0 + MUL1 + chan2, q2, mask=rok[:, None] & (u2 < MUL2)[None, :])


@triton.jit
def _bn_finalize(sums, sqs, running_mean, running_var, weight, mean_out, scale_out, new_mean, new_var,
                 inv_n, eps, momentum, MUL0: tl.constexpr, FEATS: tl.constexpr, PF: tl.constexpr):
    f = tl.arange(0, PF)
    okf = f < FEATS
    is_s = f < MUL0
    s = tl.load(sums + f, mask=is_s, other=0.0)
    q = tl.load(sqs + f, mask=okf, other=0.0)
    mean = s * inv_n
    var = q * inv_n - mean * mean
    w = tl.load(weight + f, mask=okf, other=0.0)
    tl.store(scale_out + f, w / tl.sqrt(var + eps), mask=okf)
    tl.store(mean_out + f, mean, mask=is_s)
    rm = tl.load(running_mean + f, mask=is_s, other=0.0)
    rv = tl.load(running_var + f, mask=okf, other=0.0)
    tl.store(new_mean + f, (1.0 - momentum) * rm + momentum * mean, mask=is_s)
    tl.store(new_var + f, (1.0 - momentum) * rv + momentum * var, mask=okf)


@triton.jit
def _bn_apply(x, y, mean, scale, bias, n_rows,
              D: tl.constexpr, MUL0: tl.constexpr, MUL1: tl.constexpr, MUL2: tl.constexpr,
              P0: tl.constexpr, P1: tl.constexpr, P2: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    rok = rows < n_rows
    u0 = tl.arange(0, P0)
    u1 = tl.arange(0, P1)
    u2 = tl.arange(0, P2)
    m1 = tl.arange(0, 4)
    m2 = tl.arange(0, 8)
    ok0 = u0 < MUL0
    ok1 = (u1 < MUL1)[:, None] & (m1 < 3)[None, :]
    ok2 = (u2 < MUL2)[:, None] & (m2 < 5)[None, :]
    col1 = MUL0 + u1[:, None] * 3 + m1[None, :]
    col2 = MUL0 + 3 * MUL1 + u2[:, None] * 5 + m2[None, :]
    mu = tl.load(mean + u0, mask=ok0, other=0.0)
    sc0 = tl.load(scale + u0, mask=ok0, other=0.0)
    b0 = tl.load(bias + u0, mask=ok0, other=0.0)
    sc1 = tl.load(scale + MUL0 + u1, mask=u1 < MUL1, other=0.0)
    sc2 = tl.load(scale + MUL0 + MUL1 + u2, mask=u2 < MUL2, other=0.0)
    mask0 = rok[:, None] & ok0[None, :]
    mask1 = rok[:, None, None] & ok1[None, :, :]
    mask2 = rok[:, None, None] & ok2[None, :, :]
    src = x + rows * D
    dst = y + rows * D
    v0 = tl.load(src[:, None] + u0[None, :], mask=mask0, other=0.0)
    tl.store(dst[:, None] + u0[None, :], (v0 - mu[None, :]) * sc0[None, :] + b0[None, :], mask=mask0)
    v1 = tl.load(src[:, None, None] + col1[None, :, :], mask=mask1, other=0.0)
    tl.store(dst[:, None, None] + col1[None, :, :], v1 * sc1[None, :, None], mask=mask1)
    v2 = tl.load(src[:, None, None] + col2[None, :, :], mask=mask2, other=0.0)
    tl.store(dst[:, None, None] + col2[None, :, :], v2 * sc2[None, :, None], mask=mask2)


def run(x, running_mean, running_var, weight, bias, mul0, mul1, mul2, eps, momentum) -> tuple:
    n, d = x.shape
    feats = mul0 + mul1 + mul2
    p0, p1, p2 = (triton.next_power_of_2(m) for m in (mul0, mul1, mul2))
    sums = torch.zeros(mul0, device=x.device, dtype=torch.float32)
    sqs = torch.zeros(feats, device=x.device, dtype=torch.float32)
    mean = torch.empty(mul0, device=x.device, dtype=torch.float32)
    scale = torch.empty(feats, device=x.device, dtype=torch.float32)
    new_mean = torch.empty(mul0, device=x.device, dtype=x.dtype)
    new_var = torch.empty(feats, device=x.device, dtype=x.dtype)
    y = torch.empty_like(x)
    _bn_stats[(triton.cdiv(n, BLOCK_N * TILES),)](
        x, sums, sqs, n, D=d, MUL0=mul0, MUL1=mul1, MUL2=mul2, P0=p0, P1=p1, P2=p2,
        BLOCK_N=BLOCK_N, TILES=TILES, num_warps=4)
    _bn_finalize[(1,)](sums, sqs, running_mean, running_var, weight, mean, scale, new_mean, new_var,
                       1.0 / n, eps, momentum, MUL0=mul0, FEATS=feats, PF=triton.next_power_of_2(feats))
    _bn_apply[(triton.cdiv(n, BLOCK_N),)](
        x, y, mean, scale, bias, n, D=d, MUL0=mul0, MUL1=mul1, MUL2=mul2, P0=p0, P1=p1, P2=p2,
        BLOCK_N=BLOCK_N, num_warps=4)
    return y, new_mean, new_var
