"""Restormer MDTA attention map: softmax(normalize(q) @ normalize(k)^T * temperature) over channels."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _mdta_attention_map(qkv, temperature, attn, n_rows, HEADS, CH, HW,
                        BLOCK_J: tl.constexpr, BLOCK_S: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    j = tl.arange(0, BLOCK_J)
    s = tl.arange(0, BLOCK_S)
    jmask = j < CH
    C = HEADS * CH
    for row in range(pid, n_rows, nprog):
        bh = row // CH
        i = row - bh * CH
        b = bh // HEADS
        head = bh - b * HEADS
        q_row = qkv + (b * 3 * C + head * CH + i) * HW
        k_head = qkv + (b * 3 * C + C + head * CH) * HW
        dots = tl.zeros([BLOCK_J], dtype=tl.float32)
        k_sq = tl.zeros([BLOCK_J], dtype=tl.float32)
        q_sq = tl.zeros([BLOCK_S], dtype=tl.float32)
        for s0 in range(0, HW, BLOCK_S):
            smask = s0 + s < HW
            qv = tl.load(q_row + s0 + s, mask=smask, other=0.0).to(tl.float32)
            kt = tl.load(k_head + j[:, None] * HW + s0 + s[None, :],
                         mask=jmask[:, None] & smask[None, :], other=0.0).to(tl.float32)
            dots += tl.sum(kt * qv[None, :], axis=1)
            k_sq += tl.sum(kt * kt, axis=1)
            q_sq += qv * qv
        q_norm = tl.maximum(tl.sqrt(tl.sum(q_sq, axis=0)), 1e-12)
        k_norm = tl.maximum(tl.sqrt(k_sq), 1e-12)
        logits = dots / (q_norm * k_norm) * tl.load(temperature + head)
        logits = tl.where(jmask, logits, float("-inf"))
        p = tl.exp(logits - tl.max(logits, axis=0))
        tl.store(attn + row * CH + j, p / tl.sum(p, axis=0), mask=jmask)


def run(qkv: torch.Tensor, temperature: torch.Tensor) -> torch.Tensor:
    B, C3, H, W = qkv.shape
    heads = temperature.numel()
    ch = C3 // 3 // heads
    attn = torch.empty((B, heads, ch, ch), dtype=torch.float32, device=qkv.device)
    n_rows = B * heads * ch
    _mdta_attention_map[(min(NUM_CORES, n_rows),)](qkv, temperature, attn, n_rows, heads, ch, H * W,
                                                   BLOCK_J=max(16, triton.next_power_of_2(ch)), BLOCK_S=128)
    return attn
