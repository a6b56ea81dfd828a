"""Restormer MDTA attention map: softmax(normalize(q) @ normalize(k)^T * temperature) over channels."""
import torch
import triton
import triton.language as tl

NUM_CUBE_CORES = 20


@triton.jit
def _mdta_attention_map(qkv, temperature, attn, n_bh, HEADS, CH, HW,
                        BLOCK_J: tl.constexpr, BLOCK_S: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    j = tl.arange(0, BLOCK_J)
    s = tl.arange(0, BLOCK_S)
    jmask = j < CH
    C = HEADS * CH
    for bh in range(pid, n_bh, nprog):
        b = bh // HEADS
        head = bh - b * HEADS
        q_head = qkv + (b * 3 * C + head * CH) * HW
        k_head = q_head + C * HW
        acc = tl.zeros([BLOCK_J, BLOCK_J], dtype=tl.float32)
        q_sq = tl.zeros([BLOCK_J], dtype=tl.float32)
        k_sq = tl.zeros([BLOCK_J], dtype=tl.float32)
        for s0 in range(0, HW, BLOCK_S):
            m = jmask[:, None] & (s0 + s < HW)[None, :]
            offs = j[:, None] * HW + s0 + s[None, :]
            qt = tl.load(q_head + offs, mask=m, other=0.0)
            kt = tl.load(k_head + offs, mask=m, other=0.0)
            acc = tl.dot(qt, tl.trans(kt), acc)
            qf = qt.to(tl.float32)
            kf = kt.to(tl.float32)
            q_sq += tl.sum(qf * qf, axis=1)
            k_sq += tl.sum(kf * kf, axis=1)
        q_norm = tl.maximum(tl.sqrt(q_sq), 1e-12)
        k_norm = tl.maximum(tl.sqrt(k_sq), 1e-12)
        logits = acc / (q_norm[:, None] * k_norm[None, :]) * tl.load(temperature + head)
        logits = tl.where(jmask[None, :], logits, float("-inf"))
        p = tl.exp(logits - tl.max(logits, axis=1)[:, None])
        p = p / tl.sum(p, axis=1)[:, None]
        out = attn + bh * CH * CH + j[:, None] * CH + j[None, :]
        tl.store(out, p, mask=jmask[:, None] & jmask[None, :])


def run(qkv: torch.Tensor, temperature: torch.Tensor) -> torch.Tensor:
    B, C3, H, W = qkv.shape
    heads = temperature.numel()
    ch = C3 // 3 // heads
    attn = torch.empty((B, heads, ch, ch), dtype=torch.float32, device=qkv.device)
    n_bh = B * heads
    _mdta_attention_map[(min(NUM_CUBE_CORES, n_bh),)](qkv, temperature, attn, n_bh, heads, ch, H * W,
                                                      BLOCK_J=max(16, triton.next_power_of_2(ch)), BLOCK_S=128)
    return attn
