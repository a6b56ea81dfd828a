"""Occupancy decoding: per-voxel argmax label and softmax confidence over the class axis."""
import torch
import triton
import triton.language as tl

NUM_PROGRAMS = 40


@triton.jit
def _occ_decode(logits, label, conf, V, C, n_blocks, stride_b, stride_c,
                BLOCK_V: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cls = tl.arange(0, BLOCK_C)
    for t in range(pid, n_blocks, nprog):
        b = t // tl.cdiv(V, BLOCK_V)
        v0 = (t % tl.cdiv(V, BLOCK_V)) * BLOCK_V
        v = v0 + tl.arange(0, BLOCK_V)
        m = v < V
        mask = m[:, None] & (cls[None, :] < C)
        x = tl.load(logits + b * stride_b + v[:, None] + cls[None, :] * stride_c,
                    mask=mask, other=float("-inf"))
        best = tl.max(x, axis=1)
        arg = tl.argmax(x, axis=1)
        total = tl.sum(tl.exp(x - best[:, None]), axis=1)
        tl.store(label + b * V + v, arg.to(tl.int32), mask=m)
        tl.store(conf + b * V + v, 1.0 / total, mask=m)


def run(logits: torch.Tensor):
    B, C = logits.shape[0], logits.shape[1]
    V = logits[0, 0].numel()
    label = torch.empty((B,) + tuple(logits.shape[2:]), device=logits.device, dtype=torch.int32)
    conf = torch.empty(label.shape, device=logits.device, dtype=logits.dtype)
    BLOCK_V = 128
    BLOCK_C = triton.next_power_of_2(C)
    n_blocks = B * triton.cdiv(V, BLOCK_V)
    grid = (min(NUM_PROGRAMS, n_blocks),)
    _occ_decode[grid](logits, label, conf, V, C, n_blocks, logits.stride(0), logits.stride(1),
                      BLOCK_V=BLOCK_V, BLOCK_C=BLOCK_C)
    return label, conf
